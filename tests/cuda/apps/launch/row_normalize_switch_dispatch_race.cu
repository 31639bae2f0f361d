// Row normalization dispatched by hidden size, in the style of ML inference code: the host picks
// a template instance per supported hidden size K with K / 4 threads per block (one float4 per
// thread), and every instance sums its row in shared memory with a tree over its BLOCK threads,
// then scales the row in place. The 2048 case passes the row length of the 1024 case: its blocks
// of 512 threads write 512 vectors into rows of 256.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void row_normalize(float4 *rows, float *sums, int k)
{
    __shared__ float partial[BLOCK];
    float4 v = rows[blockIdx.x * (k / 4) + threadIdx.x];
    partial[threadIdx.x] = v.x + v.y + v.z + v.w;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    float inv = 1.0f / partial[0];
    if (threadIdx.x == 0)
        sums[blockIdx.x] = partial[0];
    v.x *= inv;
    v.y *= inv;
    v.z *= inv;
    v.w *= inv;
    rows[blockIdx.x * (k / 4) + threadIdx.x] = v;
}

static int launch_row_normalize(float *data, float *sums, int rows, int K)
{
    dim3 block(K / 4);
    dim3 grid(rows);
    float4 *data4 = reinterpret_cast<float4 *>(data);
    switch (K) {
    case 512:
        row_normalize<512 / 4><<<grid, block>>>(data4, sums, 512);
        break;
    case 1024:
        row_normalize<1024 / 4><<<grid, block>>>(data4, sums, 1024);
        break;
    case 2048:
        row_normalize<2048 / 4><<<grid, block>>>(data4, sums, 1024);
        break;
    default:
        fprintf(stderr, "unsupported hidden size %d\n", K);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 4096;
    int K = argc > 2 ? atoi(argv[2]) : 1024;
    float *data, *sums;
    cudaMalloc(&data, (size_t)rows * K * sizeof(float));
    cudaMalloc(&sums, rows * sizeof(float));
    if (launch_row_normalize(data, sums, rows, K) != 0)
        return 1;
    cudaDeviceSynchronize();
    return 0;
}
