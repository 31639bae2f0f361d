//--blockDim=32 --gridDim=4
// A moved pointer to float2 elements and a float2 reference; barriers missing between the load,
// the pairwise update and the store.
__device__ void addTo(float2 &dst, float2 v) {
    dst.x += v.x;
    dst.y += v.y;
}

__global__ void k(float2 *d) {
    __shared__ float2 s[64];
    const unsigned int tid = threadIdx.x;
    d += blockIdx.x * 64;
    s[tid] = d[tid];
    s[tid + 32] = d[tid + 32];
    __syncwarp();
    addTo(s[tid], s[63 - tid]);
    d[tid] = s[tid];
    d[tid + 32] = s[tid + 32];
}
