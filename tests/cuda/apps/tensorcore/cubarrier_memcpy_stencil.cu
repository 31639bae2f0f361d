// 5-tap binomial smoothing (1 4 6 4 1)/16 of independent 256-sample frames (e.g. audio frames),
// frames clamped at their edges. Each block loops over frames; a frame is brought into shared
// memory by one collective cuda::memcpy_async of the whole thread block, whose completion is
// tracked by a block-scope cuda::barrier: arrive_and_wait() returns once the copy has landed and
// every thread arrived. The block syncs again before the buffer is overwritten by the next frame.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define FRAME 256

__device__ __forceinline__ int clamp_index(int i) { return i < 0 ? 0 : (i >= FRAME ? FRAME - 1 : i); }

__global__ void binomial5_frames(const float *__restrict__ in, float *__restrict__ out, int num_frames)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ __align__(16) float frame[FRAME];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;

    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();

    const int i = block.thread_rank();
    for (int f = blockIdx.x; f < num_frames; f += gridDim.x) {
        cuda::memcpy_async(block, frame, in + (size_t)f * FRAME, sizeof(float) * FRAME, bar);
        bar.arrive_and_wait();

        const float s = frame[clamp_index(i - 2)] + 4.0f * frame[clamp_index(i - 1)] + 6.0f * frame[i] +
                        4.0f * frame[clamp_index(i + 1)] + frame[clamp_index(i + 2)];
        out[(size_t)f * FRAME + i] = s * (1.0f / 16.0f);

        block.sync(); // all reads of this frame done before the next copy overwrites it
    }
}

int main()
{
    const int num_frames = 10000;
    std::vector<float> h((size_t)num_frames * FRAME);
    for (size_t k = 0; k < h.size(); ++k)
        h[k] = (k % 2 == 0) ? 1.0f : -1.0f;

    float *d_in = nullptr, *d_out = nullptr;
    cudaMalloc(&d_in, h.size() * sizeof(float));
    cudaMalloc(&d_out, h.size() * sizeof(float));
    cudaMemcpy(d_in, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);

    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    binomial5_frames<<<4 * sms, FRAME>>>(d_in, d_out, num_frames);
    cudaDeviceSynchronize();

    cudaMemcpy(h.data(), d_out, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
    printf("out[100] = %f (alternating input is smoothed to 0)\n", h[100]);

    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
