// Symmetric per-row int8 quantization (absmax) and dequantization.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <vector>

namespace {

// One block per row, blockDim.x = cols / 4: each thread owns four consecutive
// values. Dynamic shared memory: one float per warp.
template <typename scalar_t>
__global__ void quantize_rowwise_kernel(const scalar_t* __restrict__ x, int8_t* __restrict__ q,
                                        float* __restrict__ scales, int cols) {
  extern __shared__ unsigned char smem_raw[];
  float* s_amax = reinterpret_cast<float*>(smem_raw);
  const int row = blockIdx.x;
  const int tid = threadIdx.x;
  const int lane = tid & 31;
  const int wid = tid >> 5;
  const int nwarps = blockDim.x >> 5;

  const scalar_t* xr = x + static_cast<int64_t>(row) * cols + 4 * tid;
  const float v0 = static_cast<float>(xr[0]);
  const float v1 = static_cast<float>(xr[1]);
  const float v2 = static_cast<float>(xr[2]);
  const float v3 = static_cast<float>(xr[3]);

  float amax = fmaxf(fmaxf(fabsf(v0), fabsf(v1)), fmaxf(fabsf(v2), fabsf(v3)));
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffff, amax, o));
  if (lane == 0) s_amax[wid] = amax;
  __syncthreads();
  if (wid == 0) {
    float m = lane < nwarps ? s_amax[lane] : 0.f;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    if (lane == 0) {
      s_amax[0] = m;
      scales[row] = m / 127.f;
    }
  }
  __syncthreads();

  const float row_amax = s_amax[0];
  const float inv_scale = row_amax > 0.f ? 127.f / row_amax : 0.f;
  char4 packed;
  packed.x = static_cast<signed char>(__float2int_rn(fminf(fmaxf(v0 * inv_scale, -127.f), 127.f)));
  packed.y = static_cast<signed char>(__float2int_rn(fminf(fmaxf(v1 * inv_scale, -127.f), 127.f)));
  packed.z = static_cast<signed char>(__float2int_rn(fminf(fmaxf(v2 * inv_scale, -127.f), 127.f)));
  packed.w = static_cast<signed char>(__float2int_rn(fminf(fmaxf(v3 * inv_scale, -127.f), 127.f)));
  reinterpret_cast<char4*>(q + static_cast<int64_t>(row) * cols)[tid] = packed;
}

// y = q * scale[row]; grid-stride over groups of four values.
template <typename scalar_t>
__global__ void dequantize_rowwise_kernel(const int8_t* __restrict__ q,
                                          const float* __restrict__ scales,
                                          scalar_t* __restrict__ y, int64_t n4, int cols4) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t row = i / cols4;
    const float s = __ldg(&scales[row]);
    const char4 c = __ldg(reinterpret_cast<const char4*>(q) + i);
    scalar_t* out = y + 4 * i;
    out[0] = static_cast<scalar_t>(c.x * s);
    out[1] = static_cast<scalar_t>(c.y * s);
    out[2] = static_cast<scalar_t>(c.z * s);
    out[3] = static_cast<scalar_t>(c.w * s);
  }
}

}  // namespace

std::vector<torch::Tensor> quantize_int8(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "x must be 2-D");
  x = x.contiguous();
  const int rows = static_cast<int>(x.size(0));
  const int cols = static_cast<int>(x.size(1));
  TORCH_CHECK(cols % 128 == 0, "cols must be a multiple of 128, got ", cols);
  TORCH_CHECK(cols <= 4096, "cols must be at most 4096, got ", cols);

  auto q = torch::empty({rows, cols}, x.options().dtype(torch::kInt8));
  auto scales = torch::empty({rows}, x.options().dtype(torch::kFloat));
  const int threads = cols / 4;
  const size_t smem = (threads / 32) * sizeof(float);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "quantize_int8", ([&] {
    quantize_rowwise_kernel<scalar_t><<<rows, threads, smem, stream>>>(
        x.data_ptr<scalar_t>(), q.data_ptr<int8_t>(), scales.data_ptr<float>(), cols);
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {q, scales};
}

torch::Tensor dequantize_int8(torch::Tensor q, torch::Tensor scales, at::ScalarType out_dtype) {
  TORCH_CHECK(q.is_cuda() && scales.is_cuda(), "q and scales must be CUDA tensors");
  TORCH_CHECK(q.scalar_type() == torch::kInt8, "q must be int8");
  TORCH_CHECK(q.dim() == 2 && q.size(1) % 4 == 0, "q must be 2-D with cols % 4 == 0");
  q = q.contiguous();
  const int cols = static_cast<int>(q.size(1));
  const int64_t n4 = q.numel() / 4;
  auto y = torch::empty(q.sizes(), q.options().dtype(out_dtype));
  const int threads = 256;
  const int blocks = static_cast<int>(std::min<int64_t>((n4 + threads - 1) / threads, 4096));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(out_dtype, "dequantize_int8", ([&] {
    dequantize_rowwise_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
        q.data_ptr<int8_t>(), scales.data_ptr<float>(), y.data_ptr<scalar_t>(), n4, cols / 4);
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("quantize", &quantize_int8, "per-row int8 quantization (CUDA)");
  m.def("dequantize", &dequantize_int8, "per-row int8 dequantization (CUDA)");
}
