// All-pairs gravitational N-body simulation (GPU Gems 3, ch. 31 approach):
// every block walks over the bodies in tiles of blockDim.x positions staged in
// shared memory; each thread accumulates the acceleration of its own body.
// usage: nbody [steps]
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define NUM_BODIES 16384
#define BLOCK_SIZE 256
#define SOFTENING_SQUARED 0.01f

#define checkCudaErrors(call)                                                \
  do {                                                                       \
    cudaError_t err = call;                                                  \
    if (err != cudaSuccess) {                                                \
      fprintf(stderr, "CUDA error at %s %d: %s\n", __FILE__, __LINE__,       \
              cudaGetErrorString(err));                                      \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai) {
  float3 r;
  // r_ij  [3 FLOPS]
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  // distSqr = dot(r_ij, r_ij) + EPS^2  [6 FLOPS]
  float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING_SQUARED;
  // invDistCube = 1/distSqr^(3/2)  [4 FLOPS (2 mul, 1 sqrt, 1 inv)]
  float distSixth = distSqr * distSqr * distSqr;
  float invDistCube = 1.0f / sqrtf(distSixth);
  // s = m_j * invDistCube [1 FLOP]
  float s = bj.w * invDistCube;
  // a_i = a_i + s * r_ij [6 FLOPS]
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

__device__ float3 tile_calculation(float4 myPosition, float3 accel) {
  extern __shared__ float4 shPosition[];
  for (int i = 0; i < blockDim.x; i++) {
    accel = bodyBodyInteraction(myPosition, shPosition[i], accel);
  }
  return accel;
}

__global__ void calculate_forces(const float4 *devX, float4 *devA, int N) {
  extern __shared__ float4 shPosition[];
  float4 myPosition;
  int i, tile;
  float3 acc = {0.0f, 0.0f, 0.0f};
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  myPosition = devX[gtid];
  for (i = 0, tile = 0; i < N; i += blockDim.x, tile++) {
    int idx = tile * blockDim.x + threadIdx.x;
    shPosition[threadIdx.x] = devX[idx];
    __syncthreads();
    acc = tile_calculation(myPosition, acc);
  }
  // Save the result in global memory for the integration step.
  float4 acc4 = {acc.x, acc.y, acc.z, 0.0f};
  devA[gtid] = acc4;
}

__global__ void integrate_bodies(float4 *pos, float4 *vel, const float4 *accel, float dt,
                                 float damping, int N) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= N) return;

  float4 p = pos[index];
  float4 v = vel[index];
  float4 a = accel[index];

  v.x = (v.x + a.x * dt) * damping;
  v.y = (v.y + a.y * dt) * damping;
  v.z = (v.z + a.z * dt) * damping;

  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;

  pos[index] = p;
  vel[index] = v;
}

static void randomizeBodies(std::vector<float4> &pos, std::vector<float4> &vel) {
  for (size_t i = 0; i < pos.size(); ++i) {
    float x = rand() / (float)RAND_MAX * 2.f - 1.f;
    float y = rand() / (float)RAND_MAX * 2.f - 1.f;
    float z = rand() / (float)RAND_MAX * 2.f - 1.f;
    pos[i] = make_float4(x * 10.f, y * 10.f, z * 10.f, 1.0f);
    vel[i] = make_float4(-y * 0.1f, x * 0.1f, 0.f, 0.f);
  }
}

int main(int argc, char **argv) {
  int steps = (argc > 1) ? atoi(argv[1]) : 10;
  if (steps <= 0) {
    fprintf(stderr, "steps must be positive\n");
    exit(EXIT_FAILURE);
  }
  const int N = NUM_BODIES;
  static_assert(NUM_BODIES % BLOCK_SIZE == 0, "body count must be a multiple of the block size");

  std::vector<float4> h_pos(N), h_vel(N);
  randomizeBodies(h_pos, h_vel);

  float4 *d_pos, *d_vel, *d_acc;
  checkCudaErrors(cudaMalloc(&d_pos, N * sizeof(float4)));
  checkCudaErrors(cudaMalloc(&d_vel, N * sizeof(float4)));
  checkCudaErrors(cudaMalloc(&d_acc, N * sizeof(float4)));
  checkCudaErrors(cudaMemcpy(d_pos, h_pos.data(), N * sizeof(float4), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_vel, h_vel.data(), N * sizeof(float4), cudaMemcpyHostToDevice));

  dim3 threads(BLOCK_SIZE);
  dim3 grid(N / BLOCK_SIZE);
  size_t sharedMemSize = BLOCK_SIZE * sizeof(float4);

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));
  for (int s = 0; s < steps; ++s) {
    calculate_forces<<<grid, threads, sharedMemSize>>>(d_pos, d_acc, N);
    integrate_bodies<<<grid, threads>>>(d_pos, d_vel, d_acc, 0.001f, 0.995f, N);
  }
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));

  const int flopsPerInteraction = 20;
  double interactionsPerSecond = (double)N * N * steps / (ms * 1e-3);
  printf("%d bodies, %d steps: %.3f ms, %.2f GFLOP/s\n", N, steps, ms,
         interactionsPerSecond * flopsPerInteraction * 1e-9);

  checkCudaErrors(cudaMemcpy(h_pos.data(), d_pos, N * sizeof(float4), cudaMemcpyDeviceToHost));
  double cx = 0, cy = 0, cz = 0;
  for (int i = 0; i < N; ++i) {
    cx += h_pos[i].x;
    cy += h_pos[i].y;
    cz += h_pos[i].z;
  }
  printf("centre of mass: (%f, %f, %f)\n", cx / N, cy / N, cz / N);

  cudaFree(d_pos);
  cudaFree(d_vel);
  cudaFree(d_acc);
  return 0;
}
