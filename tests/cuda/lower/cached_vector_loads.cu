// Cached loads of vectors and structs (`__ldg` of `float4`, `__half2`, `char4`) are plain loads
// of the whole element; a `static_assert` in a kernel template runs nothing; a character
// literal is its code; a cast to a function-local alias (`acc_t`) is a cast to what it names.
#include <cuda_fp16.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <typename T> struct Acc { using type = T; };
template <> struct Acc<__half> { using type = float; };

template <int VEC>
__global__ void scale_rows(float *out, const float *in, const __half2 *w, const signed char *q, int cols)
{
    static_assert(VEC == 4, "float4 rows");
    using acc_t = typename Acc<float>::type;
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    const float4 *in4 = reinterpret_cast<const float4 *>(in + blockIdx.x * cols);
    float4 *out4 = reinterpret_cast<float4 *>(out + blockIdx.x * cols);
    for (int i = warp.thread_rank(); i < cols / VEC; i += warp.size()) {
        const float4 v = __ldg(&in4[i]);
        const __half2 h = __ldg(&w[i]);
        const char4 c = __ldg(reinterpret_cast<const char4 *>(q) + i);
        float4 r;
        r.x = static_cast<acc_t>(v.x * __low2float(h) + c.x);
        r.y = v.y * __high2float(h) + (c.y - 'a');
        r.z = v.z;
        r.w = v.w;
        out4[i] = r;
    }
}

template __global__ void scale_rows<4>(float *, const float *, const __half2 *, const signed char *, int);
