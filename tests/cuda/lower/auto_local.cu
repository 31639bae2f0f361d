//--blockDim=128 --gridDim=4
// `auto` locals take the type of their initializer: unsigned from threadIdx.x (so `tid - 1`
// wraps and the comparison is unsigned), float from the product.
__global__ void auto_local(float *a)
{
    __shared__ float s[128];
    const auto tid = threadIdx.x;
    auto v = a[blockIdx.x * 128 + tid] * 2.0f, w = v;
    s[tid] = w;
    __syncthreads();
    if (tid - 1 < 127u) a[blockIdx.x * 128 + tid] = s[tid - 1];
}
