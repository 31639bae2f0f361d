// All-pairs N-body step in the style of the CUDA samples' nbody, with a bug: positions and
// velocities as float4, the interaction written with the float3 operators of a helper_math-style
// header, one shared tile of positions per iteration. The barrier after the inner loop is
// missing, so a fast thread's load of the next tile overwrites positions that slower threads of
// its block are still reading.
#include <cstdio>
#include <cuda_runtime.h>
#include "vec_math.cuh"

#define TILE 128
#define SOFTENING 0.01f

__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai)
{
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float distSqr = dot(r, r) + SOFTENING;
    float invDist = rsqrtf(distSqr);
    float s = bj.w * invDist * invDist * invDist;
    return ai + r * s;
}

__global__ void integrateBodies(float4 *newPos, float4 *newVel, const float4 *oldPos,
                                const float4 *oldVel, float dt, float damping, int numTiles)
{
    __shared__ float4 shPos[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 pos = oldPos[i];
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (int tile = 0; tile < numTiles; tile++) {
        shPos[threadIdx.x] = oldPos[tile * TILE + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            acc = bodyBodyInteraction(pos, shPos[j], acc);
    }
    float4 vel4 = oldVel[i];
    float3 vel = make_float3(vel4.x, vel4.y, vel4.z);
    vel += acc * dt;
    vel *= damping;
    float3 p = make_float3(pos.x, pos.y, pos.z) + dt * vel;
    newPos[i] = make_float4(p.x, p.y, p.z, pos.w);
    newVel[i] = make_float4(vel.x, vel.y, vel.z, vel4.w);
}

int main()
{
    const int numBodies = 16384;
    const int numTiles = numBodies / TILE;
    size_t bytes = numBodies * sizeof(float4);
    float4 *pos[2], *vel[2];
    for (int k = 0; k < 2; k++) {
        cudaMalloc((void **)&pos[k], bytes);
        cudaMalloc((void **)&vel[k], bytes);
    }
    dim3 block(TILE);
    dim3 grid(numBodies / TILE);
    for (int step = 0; step < 10; step++) {
        int cur = step & 1;
        integrateBodies<<<grid, block>>>(pos[1 - cur], vel[1 - cur], pos[cur], vel[cur], 0.01f,
                                         0.995f, numTiles);
    }
    cudaError_t err = cudaDeviceSynchronize();
    printf("nbody: %s\n", cudaGetErrorString(err));
    for (int k = 0; k < 2; k++) {
        cudaFree(pos[k]);
        cudaFree(vel[k]);
    }
    return 0;
}
