// Attention head layout change for bf16 activations: [heads, seq, dim] -> [heads, dim, seq]
// through 32 x 32 shared tiles (padded by one column), 32 x 8 threads each moving four
// elements. Bug: the barrier between filling the tile and reading it transposed was dropped
// when the bounds checks were added.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transpose_bf16(const __nv_bfloat16 *__restrict__ in, __nv_bfloat16 *__restrict__ out, int rows,
                               int cols) {
  __shared__ __nv_bfloat16 tile[TILE][TILE + 1];
  const size_t batch_off = static_cast<size_t>(blockIdx.z) * rows * cols;
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[batch_off + static_cast<size_t>(y + j) * cols + x];
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols) out[batch_off + static_cast<size_t>(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_heads(const __nv_bfloat16 *x, __nv_bfloat16 *out, int heads, int seq, int dim,
                     cudaStream_t stream) {
  const dim3 block(TILE, ROWS);
  const dim3 grid((dim + TILE - 1) / TILE, (seq + TILE - 1) / TILE, heads);
  transpose_bf16<<<grid, block, 0, stream>>>(x, out, seq, dim);
}
