// Particles staged into shared memory with memcpy (one struct per thread) and a pair of floats
// per thread copied the same way, then each thread reads its neighbour's particle after the
// barrier and clears its own second float with memset.
#include <cstring>
#include <cuda_runtime.h>

struct Particle {
    float x, y, z, mass;
};

#define TILE 128

__global__ void stage_particles(const Particle *in, Particle *out, const float *src, float *dst)
{
    __shared__ Particle tile[TILE];
    __shared__ float pairs[2 * TILE];
    int t = threadIdx.x;
    int g = blockIdx.x * TILE + t;
    memcpy(&tile[t], &in[g], sizeof(Particle));
    memcpy(&pairs[2 * t], &src[2 * g], 2 * sizeof(float));
    __syncthreads();
    out[g] = tile[(t + 1) % TILE];
    memset(&pairs[2 * t + 1], 0, sizeof(float));
    dst[g] = pairs[2 * t];
}

int main()
{
    Particle *p, *q;
    float *s, *d;
    cudaMalloc(&p, 64 * TILE * sizeof(Particle));
    cudaMalloc(&q, 64 * TILE * sizeof(Particle));
    cudaMalloc(&s, 2 * 64 * TILE * sizeof(float));
    cudaMalloc(&d, 64 * TILE * sizeof(float));
    stage_particles<<<64, TILE>>>(p, q, s, d);
    cudaDeviceSynchronize();
    return 0;
}
