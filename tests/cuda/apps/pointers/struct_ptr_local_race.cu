//--blockDim=64 --gridDim=1
// As struct_ptr_local.cu without the barrier.
struct Pair {
    const int *src;
    int *dst;
};

__global__ void copy_shift(const int *x, int *y)
{
    __shared__ int tile[64];
    Pair q = { x, tile };
    Pair *pp = &q;
    pp->dst[threadIdx.x] = pp->src[threadIdx.x];
    y[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}
