//--blockDim=64 --gridDim=1
// As inherit_method.cu without the barrier.
struct Base {
    float *data;
    __device__ float get(int i) const { return data[i]; }
    __device__ void put(int i, float v) { data[i] = v; }
};
struct Buf : Base {
    int n;
    __device__ int size() const { return n; }
};
__global__ void k(float *a, float *out)
{
    __shared__ float s[64];
    Buf b; b.data = s; b.n = 64;
    b.put(threadIdx.x, a[threadIdx.x]);
    out[threadIdx.x] = b.get((threadIdx.x + 1) % b.size());
}
