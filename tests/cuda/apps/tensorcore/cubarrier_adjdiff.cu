// Block-local first and second differences of a signal (a discrete derivative / Laplacian
// pre-pass) using a libcu++ block-scope barrier instead of __syncthreads() between phases:
//   d1[i] = x[i] - x[i-1],  d2[i] = d1[i] - d1[i-1]  (the first element of a block uses 0 for
// the missing left neighbour). One shared slot per thread; three arrive_and_wait phases: slots
// published, slots free for reuse, reused slots published.
#include <cuda_runtime.h>
#include <cuda/barrier>
#include <cstdio>
#include <cstdlib>

constexpr int kBlock = 256;

__global__ void second_difference(const float *__restrict__ x, float *__restrict__ d1_out,
                                  float *__restrict__ d2_out, int n)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float slot[kBlock];

    const int tid = threadIdx.x;
    const int gid = blockIdx.x * kBlock + tid;

    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();

    const float v = x[gid];
    slot[tid] = v;
    bar.arrive_and_wait(); // every slot holds x

    const float left = (tid > 0) ? slot[tid - 1] : 0.0f;
    const float d1 = v - left;
    d1_out[gid] = d1;
    bar.arrive_and_wait(); // every thread has read its left neighbour; slots may be reused

    slot[tid] = d1;
    bar.arrive_and_wait(); // every slot holds d1

    const float d1_left = (tid > 0) ? slot[tid - 1] : 0.0f;
    d2_out[gid] = d1 - d1_left;
}

int main()
{
    const int n = 1 << 20;
    float *hx = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i)
        hx[i] = 0.5f * (float)(i % kBlock) * (float)(i % kBlock);

    float *dx, *dd1, *dd2;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dd1, n * sizeof(float));
    cudaMalloc(&dd2, n * sizeof(float));
    cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);

    second_difference<<<n / kBlock, kBlock>>>(dx, dd1, dd2, n);
    cudaDeviceSynchronize();

    float probe[4];
    cudaMemcpy(probe, dd2 + 2, sizeof(probe), cudaMemcpyDeviceToHost);
    printf("d2[2..5] = %f %f %f %f (expected 1.0 each)\n", probe[0], probe[1], probe[2], probe[3]);

    cudaFree(dx);
    cudaFree(dd1);
    cudaFree(dd2);
    free(hx);
    return 0;
}
