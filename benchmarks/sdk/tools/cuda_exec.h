// Host execution shim for the SDK-style benchmark kernels (used by host_run.cpp only).
// A launch runs the blocks one after another; each block runs blockDim threads as real
// std::threads, __syncthreads() is a std::barrier over the block, and __shared__ variables are
// function-level statics (shared by the threads of the running block, as on the device).
// Warp-synchronous kernels cannot run here: std::threads are not lock-step warps.
#pragma once
#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __shared__ static
#define __constant__
#define __forceinline__ inline

struct uint3 { unsigned int x = 0, y = 0, z = 0; };
struct dim3 {
    unsigned int x = 1, y = 1, z = 1;
    dim3(unsigned int a = 1, unsigned int b = 1, unsigned int c = 1) : x(a), y(b), z(c) {}
};
inline thread_local uint3 threadIdx;
inline uint3 blockIdx;
inline dim3 blockDim;
inline dim3 gridDim;
inline std::barrier<> *g_blockBarrier = nullptr;
// Backing store of `extern __shared__` arrays (the kernels' SharedMemory<T> idiom).
inline int __smem[16384];

struct float2 { float x, y; };
struct uint4 { unsigned int x, y, z, w; };
inline float2 make_float2(float x, float y) { return float2{x, y}; }

inline void __syncthreads() { g_blockBarrier->arrive_and_wait(); }
template <class T> inline T atomicAdd(T *address, T val)
{
    return std::atomic_ref<T>(*address).fetch_add(val);
}
inline int __mul24(int a, int b) { return a * b; }
inline unsigned int __umul24(unsigned int a, unsigned int b) { return a * b; }
inline unsigned int __brev(unsigned int x)
{
    unsigned int r = 0;
    for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline void __sincosf(float x, float *s, float *c) { *s = std::sin(x); *c = std::cos(x); }
inline float __expf(float x) { return std::exp(x); }
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }

// Runs kernel(args...) over grid x block, block by block, one std::thread per CUDA thread.
template <class F, class... A>
void launch(dim3 grid, dim3 block, F kernel, A... args)
{
    gridDim = grid;
    blockDim = block;
    const unsigned int n = block.x * block.y * block.z;
    for (unsigned int by = 0; by < grid.y; by++)
        for (unsigned int bx = 0; bx < grid.x; bx++) {
            blockIdx = uint3{bx, by, 0};
            std::barrier<> bar(n);
            g_blockBarrier = &bar;
            std::vector<std::thread> threads;
            threads.reserve(n);
            for (unsigned int ty = 0; ty < block.y; ty++)
                for (unsigned int tx = 0; tx < block.x; tx++)
                    threads.emplace_back([=] {
                        threadIdx = uint3{tx, ty, 0};
                        kernel(args...);
                    });
            for (auto &t : threads) t.join();
        }
}
