// Work-efficient exclusive scan (Blelloch) of one block's 512 elements in shared memory:
// up-sweep, clear the root, down-sweep. Every barrier between the phases and levels is missing.
#include <cstdio>
#include <cuda_runtime.h>

#define N 512

__global__ void prescan(const float *g_in, float *g_out)
{
    __shared__ float temp[N];
    int thid = threadIdx.x;
    int offset = 1;

    temp[2 * thid] = g_in[blockIdx.x * N + 2 * thid];
    temp[2 * thid + 1] = g_in[blockIdx.x * N + 2 * thid + 1];

    for (int d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }

    if (thid == 0)
        temp[N - 1] = 0;

    for (int d = 1; d < N; d *= 2) {
        __syncthreads();
        offset >>= 1;
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }

    g_out[blockIdx.x * N + 2 * thid] = temp[2 * thid];
    g_out[blockIdx.x * N + 2 * thid + 1] = temp[2 * thid + 1];
}

int main()
{
    const int blocks = 1024;
    float *d_in, *d_out;
    cudaMalloc(&d_in, blocks * N * sizeof(float));
    cudaMalloc(&d_out, blocks * N * sizeof(float));
    dim3 block(N / 2);
    dim3 grid(blocks);
    prescan<<<grid, block>>>(d_in, d_out);
    cudaDeviceSynchronize();
    printf("scanned %d elements\n", blocks * N);
    return 0;
}
