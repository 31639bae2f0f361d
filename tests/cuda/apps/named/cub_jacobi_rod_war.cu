// Variant of cub_jacobi_rod.cu: one barrier phase per sweep (no phase between the reads and the next sweep's store).
/*
 * Heat diffusion along a rod: SWEEPS explicit (Jacobi-style) time steps of
 *
 *     u_i <- u_i + alpha * (u_{i-1} - 2 u_i + u_{i+1}) + dt * q_i(t),
 *
 * one rod segment of ROD_POINTS points per thread block, fixed temperatures at both ends.
 * The temperatures of the current sweep are exchanged through shared memory. A sweep needs
 * two synchronizations: the neighbours' values must be published before they are read, and
 * every thread must have read them before the next sweep overwrites them. We use a libcu++
 * cuda::barrier and split both synchronizations into arrive() and wait(), so that the
 * independent part of the work (the heat source, the update of the thread's own value)
 * overlaps the arrival of the other threads.
 */
#include <cuda_runtime.h>
#include <cuda/barrier>
#include <utility>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define ROD_POINTS 128
#define SWEEPS 32
#define NUM_RODS 2048
#define DT 0.01f

__device__ float heat_source(float q, int sweep)
{
    // pulsed heater: the source decays within each period of 8 sweeps
    return q * expf(-0.25f * (float)(sweep % 8));
}

__global__ void jacobi_rod(const float *u0, const float *q, const float *t_left, const float *t_right,
                           float *u_out, float alpha)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float u_s[ROD_POINTS];

    int i = threadIdx.x;
    int g = blockIdx.x * ROD_POINTS + i;

    if (i == 0)
        init(&bar, ROD_POINTS);
    __syncthreads();

    float u = u0[g];
    float qi = q[g];
    float left_bc = t_left[blockIdx.x];
    float right_bc = t_right[blockIdx.x];

    for (int sweep = 0; sweep < SWEEPS; sweep++) {
        u_s[i] = u;
        auto published = bar.arrive();

        float src = DT * heat_source(qi, sweep); // needs no neighbour

        bar.wait(std::move(published));
        float ul = (i > 0) ? u_s[i - 1] : left_bc;
        float ur = (i < ROD_POINTS - 1) ? u_s[i + 1] : right_bc;

        u = u + alpha * (ul - 2.0f * u + ur) + src;
    }
    u_out[g] = u;
}

int main(void)
{
    int n = NUM_RODS * ROD_POINTS;
    float *h_u = (float *)malloc(n * sizeof(float));
    float *h_q = (float *)malloc(n * sizeof(float));
    float *h_left = (float *)malloc(NUM_RODS * sizeof(float));
    float *h_right = (float *)malloc(NUM_RODS * sizeof(float));
    for (int k = 0; k < n; k++) {
        h_u[k] = 20.0f;
        h_q[k] = (k % ROD_POINTS == ROD_POINTS / 2) ? 50.0f : 0.0f;
    }
    for (int r = 0; r < NUM_RODS; r++) {
        h_left[r] = 100.0f;
        h_right[r] = 0.0f;
    }

    float *d_u, *d_q, *d_left, *d_right, *d_out;
    cudaMalloc((void **)&d_u, n * sizeof(float));
    cudaMalloc((void **)&d_q, n * sizeof(float));
    cudaMalloc((void **)&d_left, NUM_RODS * sizeof(float));
    cudaMalloc((void **)&d_right, NUM_RODS * sizeof(float));
    cudaMalloc((void **)&d_out, n * sizeof(float));
    cudaMemcpy(d_u, h_u, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_q, h_q, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_left, h_left, NUM_RODS * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_right, h_right, NUM_RODS * sizeof(float), cudaMemcpyHostToDevice);

    dim3 dimGrid(NUM_RODS);
    dim3 dimBlock(ROD_POINTS);
    jacobi_rod<<<dimGrid, dimBlock>>>(d_u, d_q, d_left, d_right, d_out, 0.25f);
    cudaDeviceSynchronize();

    cudaMemcpy(h_u, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("rod 0: u[1] = %f, u[%d] = %f\n", h_u[1], ROD_POINTS / 2, h_u[ROD_POINTS / 2]);

    cudaFree(d_u);
    cudaFree(d_q);
    cudaFree(d_left);
    cudaFree(d_right);
    cudaFree(d_out);
    free(h_u);
    free(h_q);
    free(h_left);
    free(h_right);
    return 0;
}
