// Variant of ws_stencil_1p.cu: the buffer-filled barriers (1, 2) count 128 threads.
/*
 * 1D convolution with a 7-tap filter (radius 3) over a long signal, warp-specialized.
 *
 * Each thread block processes CHUNKS_PER_BLOCK consecutive chunks of CHUNK outputs.
 * Warp 0 is a copy warp: it stages chunk c together with its halo (CHUNK + 2 * RADIUS input
 * samples, clamped at the ends of the signal) into one of two shared buffers. Warps 1 and 2
 * compute: thread t produces output t of every chunk from the staged samples.
 *
 * The copy warp and the compute warps are synchronized with four named barriers of all
 * 96 threads of the block (3 warps):
 *   barrier 1 / 2 : buffer 0 / 1 has been filled   (copy warp arrives, compute warps sync)
 *   barrier 3 / 4 : buffer 0 / 1 may be refilled   (compute warps arrive, copy warp syncs)
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define RADIUS 3
#define FILTER_TAPS (2 * RADIUS + 1)
#define CHUNK 64
#define HALO_CHUNK (CHUNK + 2 * RADIUS)
#define CHUNKS_PER_BLOCK 16
#define PRODUCER_WARPS 1
#define CONSUMER_WARPS 2
#define THREADS_PER_BLOCK (32 * (PRODUCER_WARPS + CONSUMER_WARPS))
#define NUM_BLOCKS 256
#define SIGNAL_LEN (NUM_BLOCKS * CHUNKS_PER_BLOCK * CHUNK)

__constant__ float c_taps[FILTER_TAPS];

// Copy warp: samples start - RADIUS .. start + CHUNK + RADIUS - 1 into dst[0 .. HALO_CHUNK).
__device__ void loadChunk(float *dst, const float *src, int start, int lane)
{
    for (int i = lane; i < HALO_CHUNK; i += 32) {
        int g = start - RADIUS + i;
        g = min(max(g, 0), SIGNAL_LEN - 1);
        dst[i] = src[g];
    }
}

// Compute thread t: output start + t from buf[t .. t + 2 * RADIUS].
__device__ void convolveChunk(const float *buf, float *dst, int start, int t)
{
    float sum = 0.0f;
    for (int k = 0; k < FILTER_TAPS; ++k)
        sum += c_taps[k] * buf[t + k];
    dst[start + t] = sum;
}

__global__ void conv1dWarpSpecialized(const float *d_in, float *d_out)
{
    __shared__ float s_buf[2][HALO_CHUNK];

    const int blockStart = blockIdx.x * CHUNKS_PER_BLOCK * CHUNK;

    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        for (int c = 0; c < CHUNKS_PER_BLOCK; ++c) {
            const int start = blockStart + c * CHUNK;
            if ((c & 1) == 0) {
                if (c >= 2)
                    asm volatile("bar.sync 3, 96;" ::: "memory");
                loadChunk(s_buf[0], d_in, start, lane);
                asm volatile("bar.arrive 1, 128;" ::: "memory");
            } else {
                if (c >= 2)
                    asm volatile("bar.sync 4, 96;" ::: "memory");
                loadChunk(s_buf[1], d_in, start, lane);
                asm volatile("bar.arrive 2, 128;" ::: "memory");
            }
        }
    } else {
        const int t = threadIdx.x - 32;
        for (int c = 0; c < CHUNKS_PER_BLOCK; ++c) {
            const int start = blockStart + c * CHUNK;
            if ((c & 1) == 0) {
                asm volatile("bar.sync 1, 128;" ::: "memory");
                convolveChunk(s_buf[0], d_out, start, t);
                if (c + 2 < CHUNKS_PER_BLOCK)
                    asm volatile("bar.arrive 3, 96;" ::: "memory");
            } else {
                asm volatile("bar.sync 2, 128;" ::: "memory");
                convolveChunk(s_buf[1], d_out, start, t);
                if (c + 2 < CHUNKS_PER_BLOCK)
                    asm volatile("bar.arrive 4, 96;" ::: "memory");
            }
        }
    }
}

int main(int argc, char **argv)
{
    const size_t bytes = SIGNAL_LEN * sizeof(float);
    float h_taps[FILTER_TAPS] = {1.0f / 64, 6.0f / 64, 15.0f / 64, 20.0f / 64, 15.0f / 64, 6.0f / 64, 1.0f / 64};

    float *h_in = (float *)malloc(bytes);
    float *h_out = (float *)malloc(bytes);
    for (int i = 0; i < SIGNAL_LEN; ++i)
        h_in[i] = (float)(rand() % 256) / 255.0f;

    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, bytes);
    cudaMalloc((void **)&d_out, bytes);
    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(c_taps, h_taps, sizeof(h_taps));

    dim3 threads(THREADS_PER_BLOCK);
    dim3 blocks(NUM_BLOCKS);
    conv1dWarpSpecialized<<<blocks, threads>>>(d_in, d_out);
    cudaDeviceSynchronize();
    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);

    double maxErr = 0.0;
    for (int i = RADIUS; i < SIGNAL_LEN - RADIUS; i += 1013) {
        double ref = 0.0;
        for (int k = 0; k < FILTER_TAPS; ++k)
            ref += h_taps[k] * h_in[i - RADIUS + k];
        double e = ref - h_out[i];
        if (e < 0)
            e = -e;
        if (e > maxErr)
            maxErr = e;
    }
    printf("max error %g: %s\n", maxErr, maxErr < 1e-5 ? "PASSED" : "FAILED");

    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
