// 1-D heat diffusion, textbook style: each block loads its segment of the rod into one of two
// shared buffers and runs several explicit time steps on chip, swapping the `cur` and `nxt`
// pointers after every step (double buffering). BUG: the barrier of the step is missing, so a
// thread's next step reads its neighbours' cells of the buffer they may not have written yet,
// and overwrites cells of the old buffer that slower neighbours still read.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define SEG 256
#define STEPS 16

__global__ void heatSteps(const float *u_in, float *u_out, float alpha, int n)
{
    __shared__ float bufA[SEG + 2];
    __shared__ float bufB[SEG + 2];
    float *cur = bufA;
    float *nxt = bufB;

    int t = threadIdx.x;
    int g = blockIdx.x * SEG + t;
    cur[t + 1] = g < n ? u_in[g] : 0.0f;
    if (t == 0) {
        // Insulated ends of the segment: the halo cells keep their values in both buffers.
        cur[0] = 0.0f;
        cur[SEG + 1] = 0.0f;
        nxt[0] = 0.0f;
        nxt[SEG + 1] = 0.0f;
    }
    __syncthreads();

    for (int s = 0; s < STEPS; ++s) {
        float left = cur[t], mid = cur[t + 1], right = cur[t + 2];
        nxt[t + 1] = mid + alpha * (left - 2.0f * mid + right);
        float *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }

    if (g < n)
        u_out[g] = cur[t + 1];
}

int main()
{
    const int n = 1 << 20;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i)
        h[i] = (i % 1000 == 0) ? 100.0f : 0.0f;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);

    dim3 block(SEG);
    dim3 grid((n + SEG - 1) / SEG);
    heatSteps<<<grid, block>>>(d_in, d_out, 0.25f, n);

    cudaMemcpy(h, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("u[0] = %f\n", h[0]);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h);
    return 0;
}
