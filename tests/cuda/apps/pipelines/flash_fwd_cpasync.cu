// FlashAttention-style forward pass (fp32, no masking), one block per (query tile, head, batch).
// The block's 64 queries are staged in shared memory once; K and V are streamed in tiles of 16
// keys, double-buffered with cp.async so tile j+1 is in flight while tile j is consumed.
// Each thread owns one query row: its scores, running max, running sum and output accumulator
// live in registers (online softmax), and it writes its row of O at the end.
// Layout: Q, K, V, O are [batch][heads][seq][HEAD_DIM], seq a multiple of BLOCK_Q and BLOCK_KV.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

constexpr int BATCH = 2;
constexpr int HEADS = 8;
constexpr int SEQ_LEN = 1024;
constexpr int HEAD_DIM = 64;
constexpr int BLOCK_Q = 64;    // queries per block == threads per block
constexpr int BLOCK_KV = 16;   // keys per K/V tile

__device__ __forceinline__ void cp_async_16B(void *smem, const void *gmem)
{
    const unsigned int dst = static_cast<unsigned int>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem));
}

__device__ __forceinline__ void cp_async_fence()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int PENDING>
__device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}

// One K tile and one V tile: BLOCK_KV x HEAD_DIM floats each = 256 vectors, 4 per thread.
__device__ __forceinline__ void load_kv_tile(float (*ks)[HEAD_DIM], float (*vs)[HEAD_DIM],
                                             const float *k_src, const float *v_src, int tid)
{
#pragma unroll
    for (int i = 0; i < (BLOCK_KV * HEAD_DIM / 4) / BLOCK_Q; ++i) {
        const int vec = tid + i * BLOCK_Q;            // 0..255
        const int r = vec / (HEAD_DIM / 4);           // 0..15
        const int c = (vec % (HEAD_DIM / 4)) * 4;     // 0..60
        cp_async_16B(&ks[r][c], k_src + r * HEAD_DIM + c);
        cp_async_16B(&vs[r][c], v_src + r * HEAD_DIM + c);
    }
}

__global__ void __launch_bounds__(BLOCK_Q)
flash_attn_fwd_kernel(const float *__restrict__ Q, const float *__restrict__ K,
                      const float *__restrict__ V, float *__restrict__ O, int seq_len,
                      float softmax_scale)
{
    __shared__ __align__(16) float Qs[BLOCK_Q][HEAD_DIM];
    __shared__ __align__(16) float Ks[2][BLOCK_KV][HEAD_DIM];
    __shared__ __align__(16) float Vs[2][BLOCK_KV][HEAD_DIM];

    const int tid = threadIdx.x;
    const int q_tile = blockIdx.x;
    const int head = blockIdx.y;
    const int batch = blockIdx.z;
    const size_t head_offset = ((size_t)batch * HEADS + head) * seq_len * HEAD_DIM;
    const float *q_src = Q + head_offset + (size_t)q_tile * BLOCK_Q * HEAD_DIM;
    const float *k_src = K + head_offset;
    const float *v_src = V + head_offset;

    // Group 0: the Q tile (16 vectors per thread) and K/V tile 0 into buffer 0.
#pragma unroll
    for (int i = 0; i < (BLOCK_Q * HEAD_DIM / 4) / BLOCK_Q; ++i) {
        const int vec = tid + i * BLOCK_Q;            // 0..1023
        const int r = vec / (HEAD_DIM / 4);           // 0..63
        const int c = (vec % (HEAD_DIM / 4)) * 4;
        cp_async_16B(&Qs[r][c], q_src + r * HEAD_DIM + c);
    }
    load_kv_tile(Ks[0], Vs[0], k_src, v_src, tid);
    cp_async_fence();

    float row_max = -INFINITY;
    float row_sum = 0.0f;
    float acc[HEAD_DIM];
#pragma unroll
    for (int d = 0; d < HEAD_DIM; ++d)
        acc[d] = 0.0f;

    const int n_kv = seq_len / BLOCK_KV;
    for (int j = 0; j < n_kv; ++j) {
        const int buf = j & 1;
        if (j + 1 < n_kv)
            load_kv_tile(Ks[buf ^ 1], Vs[buf ^ 1], k_src + (size_t)(j + 1) * BLOCK_KV * HEAD_DIM,
                         v_src + (size_t)(j + 1) * BLOCK_KV * HEAD_DIM, tid);
        cp_async_fence();        // always commit, so the wait below counts the same every time
        cp_async_wait<1>();      // everything up to tile j has landed
        __syncthreads();

        // S = q K^T for this tile, in registers.
        float s[BLOCK_KV];
        float tile_max = row_max;
#pragma unroll
        for (int c = 0; c < BLOCK_KV; ++c) {
            float dot = 0.0f;
#pragma unroll
            for (int d = 0; d < HEAD_DIM; ++d)
                dot += Qs[tid][d] * Ks[buf][c][d];
            s[c] = dot * softmax_scale;
            tile_max = fmaxf(tile_max, s[c]);
        }

        // Online softmax: rescale what was accumulated under the old max.
        const float correction = __expf(row_max - tile_max);
        row_sum *= correction;
#pragma unroll
        for (int d = 0; d < HEAD_DIM; ++d)
            acc[d] *= correction;
#pragma unroll
        for (int c = 0; c < BLOCK_KV; ++c) {
            const float p = __expf(s[c] - tile_max);
            row_sum += p;
#pragma unroll
            for (int d = 0; d < HEAD_DIM; ++d)
                acc[d] += p * Vs[buf][c][d];
        }
        row_max = tile_max;

        __syncthreads();         // buffer `buf` is refilled in the next iteration
    }

    float *o_dst = O + head_offset + ((size_t)q_tile * BLOCK_Q + tid) * HEAD_DIM;
    const float inv = 1.0f / row_sum;
#pragma unroll
    for (int d = 0; d < HEAD_DIM; ++d)
        o_dst[d] = acc[d] * inv;
}

int main()
{
    const size_t elems = (size_t)BATCH * HEADS * SEQ_LEN * HEAD_DIM;
    const size_t bytes = elems * sizeof(float);
    float *h = (float *)malloc(bytes);
    for (size_t i = 0; i < elems; ++i)
        h[i] = 0.01f * (float)((i * 131) % 97) - 0.48f;

    float *dQ, *dK, *dV, *dO;
    cudaMalloc(&dQ, bytes);
    cudaMalloc(&dK, bytes);
    cudaMalloc(&dV, bytes);
    cudaMalloc(&dO, bytes);
    cudaMemcpy(dQ, h, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dK, h, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dV, h, bytes, cudaMemcpyHostToDevice);

    const dim3 grid(SEQ_LEN / BLOCK_Q, HEADS, BATCH);
    const dim3 block(BLOCK_Q);
    const float scale = 1.0f / sqrtf((float)HEAD_DIM);
    flash_attn_fwd_kernel<<<grid, block>>>(dQ, dK, dV, dO, SEQ_LEN, scale);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "flash_attn_fwd_kernel: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h, dO, bytes, cudaMemcpyDeviceToHost);
    printf("O[0][0][0][0..1] = %f %f\n", h[0], h[1]);

    cudaFree(dQ);
    cudaFree(dK);
    cudaFree(dV);
    cudaFree(dO);
    free(h);
    return 0;
}
