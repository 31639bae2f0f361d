// Struct inheritance: the bases' members first, in declaration order; a conversion to a base
// is the base's words.
struct Buf { float *p; };
struct Count { int n; };
struct Tile : Buf, Count { int stride; };

__device__ void put(const Buf &b, int i, float v) { b.p[i] = v; }
__device__ int count(const Count &c) { return c.n; }

__global__ void k(Tile t, float *out) {
    __shared__ Tile st[4];
    put(t, threadIdx.x, 1.0f);
    if (threadIdx.x < 4)
        st[threadIdx.x].n = count(t) + t.stride;
    __syncthreads();
    out[threadIdx.x] = count(st[threadIdx.x % 4]);
}
