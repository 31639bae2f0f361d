// Variant of cub_spring_chain.cu: the left spring is evaluated between arrive() and wait().
// One explicit Euler step of many independent mass-spring chains (a 1-D rope model): block b
// simulates chain b, thread i its mass i. Mass 0 is pinned.
//
// A mass needs its neighbours' positions for the spring forces. Each thread publishes its
// position in shared memory and arrives on a libcu++ block barrier; it then computes the
// forces that need no neighbour (gravity, damping) while the other threads arrive, and waits
// on its arrival token before reading the neighbours: the split arrive/wait hides the
// barrier latency behind independent work.
#include <cuda_runtime.h>
#include <cuda/barrier>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

constexpr int kChainLen = 256; // masses per chain = threads per block
constexpr int kChains = 1024;
constexpr float kStiffness = 40.0f;
constexpr float kRestLength = 0.01f;
constexpr float kDamping = 0.02f;
constexpr float kGravity = -9.81f;
constexpr float kDt = 1.0e-3f;

__global__ void spring_chain_step(const float *__restrict__ pos, const float *__restrict__ vel,
                                  const float *__restrict__ mass, float *__restrict__ pos_out,
                                  float *__restrict__ vel_out)
{
    using block_barrier = cuda::barrier<cuda::thread_scope_block>;
    __shared__ block_barrier bar;
    __shared__ float s_pos[kChainLen];

    const int i = threadIdx.x;
    const size_t g = (size_t)blockIdx.x * kChainLen + i;

    if (i == 0)
        init(&bar, blockDim.x);
    __syncthreads();

    const float x = pos[g];
    s_pos[i] = x;
    auto token = bar.arrive();

    // Forces local to this mass, overlapped with the barrier.
    const float v = vel[g];
    const float m = mass[g];
    float f = m * kGravity - kDamping * v;
    if (i > 0)
        f += kStiffness * (s_pos[i - 1] - x + kRestLength);

    bar.wait(std::move(token));
    if (i < kChainLen - 1)
        f += kStiffness * (s_pos[i + 1] - x - kRestLength);

    const float v_new = (i == 0) ? 0.0f : v + kDt * f / m;
    vel_out[g] = v_new;
    pos_out[g] = x + kDt * v_new;
}

int main()
{
    const size_t n = (size_t)kChains * kChainLen;
    std::vector<float> h_pos(n), h_vel(n, 0.0f), h_mass(n, 0.05f);
    for (size_t k = 0; k < n; ++k)
        h_pos[k] = -kRestLength * (float)(k % kChainLen);

    float *d_pos, *d_vel, *d_mass, *d_pos2, *d_vel2;
    cudaMalloc(&d_pos, n * sizeof(float));
    cudaMalloc(&d_vel, n * sizeof(float));
    cudaMalloc(&d_mass, n * sizeof(float));
    cudaMalloc(&d_pos2, n * sizeof(float));
    cudaMalloc(&d_vel2, n * sizeof(float));
    cudaMemcpy(d_pos, h_pos.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_vel, h_vel.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_mass, h_mass.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    dim3 grid(kChains), block(kChainLen);
    for (int step = 0; step < 100; ++step) {
        spring_chain_step<<<grid, block>>>(d_pos, d_vel, d_mass, d_pos2, d_vel2);
        std::swap(d_pos, d_pos2);
        std::swap(d_vel, d_vel2);
    }
    cudaDeviceSynchronize();
    cudaMemcpy(h_pos.data(), d_pos, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("tip of chain 0 at %f\n", h_pos[kChainLen - 1]);

    cudaFree(d_pos);
    cudaFree(d_vel);
    cudaFree(d_mass);
    cudaFree(d_pos2);
    cudaFree(d_vel2);
    return 0;
}
