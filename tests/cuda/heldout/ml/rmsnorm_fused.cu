// RMSNorm kernels for fp16 inference: a warp-per-row variant for the decode
// path and a fused residual-add + RMSNorm for the prefill path.
#include <cstdio>
#include "common.cuh"

constexpr int kRowsPerBlock = 4;

// One warp per row; the block keeps a float copy of the weight vector in
// shared memory (cols floats, sized at the launch).
__global__ void rmsnorm_warp_kernel(__half* __restrict__ out,
                                    const __half* __restrict__ inp,
                                    const __half* __restrict__ weight,
                                    int rows, int cols, float eps) {
  extern __shared__ float s_weight[];
  const int lane = threadIdx.x;
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.y;

  if (row < rows) {
    const int tid = threadIdx.y * WARP_SIZE + lane;
    for (int c = tid; c < cols; c += kRowsPerBlock * WARP_SIZE) s_weight[c] = __half2float(weight[c]);
    __syncthreads();

    const __half2* x2 = reinterpret_cast<const __half2*>(inp + (size_t)row * cols);
    __half2* y2 = reinterpret_cast<__half2*>(out + (size_t)row * cols);
    const int cols2 = cols / 2;

    float ss = 0.f;
    for (int i = lane; i < cols2; i += WARP_SIZE) {
      const float2 f = __half22float2(x2[i]);
      ss += f.x * f.x + f.y * f.y;
    }
    ss = warp_reduce_sum(ss);
    const float inv_rms = rsqrtf(ss / cols + eps);

    for (int i = lane; i < cols2; i += WARP_SIZE) {
      const float2 f = __half22float2(x2[i]);
      y2[i] = __floats2half2_rn(f.x * inv_rms * s_weight[2 * i], f.y * inv_rms * s_weight[2 * i + 1]);
    }
  }
}

// residual += x;  x = rmsnorm(residual) * weight.   One block per row.
__global__ void fused_add_rmsnorm_kernel(__half* __restrict__ x,
                                         __half* __restrict__ residual,
                                         const __half* __restrict__ weight,
                                         int cols, float eps) {
  __shared__ float s_red[32];
  __half2* x2 = reinterpret_cast<__half2*>(x + (size_t)blockIdx.x * cols);
  __half2* r2 = reinterpret_cast<__half2*>(residual + (size_t)blockIdx.x * cols);
  const __half2* w2 = reinterpret_cast<const __half2*>(weight);
  const int cols2 = cols / 2;

  float ss = 0.f;
  for (int i = threadIdx.x; i < cols2; i += blockDim.x) {
    const __half2 h = __hadd2(x2[i], r2[i]);
    r2[i] = h;
    const float2 f = __half22float2(h);
    ss += f.x * f.x + f.y * f.y;
  }
  ss = block_reduce_sum(ss, s_red);
  const float inv_rms = rsqrtf(ss / cols + eps);

  for (int i = threadIdx.x; i < cols2; i += blockDim.x) {
    const float2 f = __half22float2(r2[i]);
    const float2 w = __half22float2(__ldg(&w2[i]));
    x2[i] = __floats2half2_rn(f.x * inv_rms * w.x, f.y * inv_rms * w.y);
  }
}

// ----------------------------------------------------------------------------

cudaError_t rmsnorm(__half* out, const __half* inp, const __half* weight, int rows, int cols,
                    float eps, cudaStream_t stream) {
  if (cols % 2 != 0) return cudaErrorInvalidValue;
  dim3 block(WARP_SIZE, kRowsPerBlock);
  dim3 grid(ceil_div(rows, kRowsPerBlock));
  const size_t smem = cols * sizeof(float);
  rmsnorm_warp_kernel<<<grid, block, smem, stream>>>(out, inp, weight, rows, cols, eps);
  return cudaGetLastError();
}

cudaError_t fused_add_rmsnorm(__half* x, __half* residual, const __half* weight, int rows,
                              int cols, float eps, cudaStream_t stream) {
  if (cols % 2 != 0) return cudaErrorInvalidValue;
  fused_add_rmsnorm_kernel<<<rows, 256, 0, stream>>>(x, residual, weight, cols, eps);
  return cudaGetLastError();
}
