#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>

// Gaussian noise for a data-augmentation pass: Philox states set up once, four values per
// thread and call with curand_normal4 / curand_uniform4, written as float4. The host launches
// both kernels with 64 blocks of 256 threads.
__global__ void setupNoise(curandStatePhilox4_32_10_t *state, unsigned long long seed)
{
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    curand_init(seed, id, 0, &state[id]);
}

__global__ void addNoise(curandStatePhilox4_32_10_t *state, float4 *img, float sigma, float p)
{
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    curandStatePhilox4_32_10_t local = state[id];
    float4 g = curand_normal4(&local);
    float4 u = curand_uniform4(&local);
    float4 v = img[id];
    v.x += u.x < p ? sigma * g.x : 0.0f;
    v.y += u.y < p ? sigma * g.y : 0.0f;
    v.z += u.z < p ? sigma * g.z : 0.0f;
    v.w += u.w < p ? sigma * g.w : 0.0f;
    img[id] = v;
    state[id] = local;
}

int main()
{
    const int blocks = 64, threads = 256;
    curandStatePhilox4_32_10_t *d_state;
    float4 *d_img;
    cudaMalloc(&d_state, blocks * threads * sizeof(curandStatePhilox4_32_10_t));
    cudaMalloc(&d_img, blocks * threads * sizeof(float4));
    setupNoise<<<64, 256>>>(d_state, 1234ULL);
    addNoise<<<64, 256>>>(d_state, d_img, 0.1f, 0.5f);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(d_state);
    cudaFree(d_img);
    return 0;
}
