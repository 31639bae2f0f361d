// N-body step over an array of particle structs (the barrier after the tile is used is missing:
// the next iteration overwrites bodies other threads still read): each block stages a tile of bodies in
// shared memory, every thread accumulates the acceleration of its body against the tile.
#include <cuda_runtime.h>
#include <cstdio>

struct Body {
  float x, y, z;
  float mass;
};

struct Accel {
  float ax, ay, az;
};

#define TILE 128

__device__ Accel interact(const Body &me, const Body &other, Accel acc) {
  float dx = other.x - me.x;
  float dy = other.y - me.y;
  float dz = other.z - me.z;
  float d2 = dx * dx + dy * dy + dz * dz + 1e-4f;
  float inv = rsqrtf(d2);
  float s = other.mass * inv * inv * inv;
  acc.ax += dx * s;
  acc.ay += dy * s;
  acc.az += dz * s;
  return acc;
}

__global__ void nbody_step(const Body *bodies, Accel *out, int n) {
  __shared__ Body tile[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  Body me = bodies[i < n ? i : 0];
  Accel acc = {0.f, 0.f, 0.f};
  for (int base = 0; base < n; base += TILE) {
    int j = base + threadIdx.x;
    if (j < n)
      tile[threadIdx.x] = bodies[j];
    __syncthreads();
    for (int k = 0; k < TILE && base + k < n; ++k)
      acc = interact(me, tile[k], acc);
  }
  if (i < n)
    out[i] = acc;
}

int main() {
  int n = 4096;
  Body *d_bodies;
  Accel *d_out;
  cudaMalloc(&d_bodies, n * sizeof(Body));
  cudaMalloc(&d_out, n * sizeof(Accel));
  nbody_step<<<(n + TILE - 1) / TILE, TILE>>>(d_bodies, d_out, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(d_bodies);
  cudaFree(d_out);
  return 0;
}
