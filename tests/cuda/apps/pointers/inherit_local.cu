//--blockDim=64 --gridDim=1
// A derived local passed to a helper taking a reference to its base.
struct Buf {
    float *p;
};

struct Tile : Buf {
    int stride;
};

__device__ void put(const Buf &b, int i, float v) { b.p[i] = v; }

__global__ void spread(float *out)
{
    __shared__ float s[128];
    Tile t;
    t.p = s;
    t.stride = 2;
    put(t, threadIdx.x * t.stride, 1.0f);
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * 2 + 2) % 128];
}
