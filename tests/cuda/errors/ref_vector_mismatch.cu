__device__ void zero(float4 &v) { v.x = 0.0f; }

__global__ void k(float2 *a) {
    zero(a[threadIdx.x]);
}
