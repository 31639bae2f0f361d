__device__ float len2(float2 v) { return v.x * v.x + v.y * v.y; }
__device__ float len2(float4 v) { return v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w; }

__global__ void k(float3 *v, float *out) {
    float3 a = v[threadIdx.x];
    out[threadIdx.x] = len2(a);
}
