// A device function returning one of its pointer arguments: their arrays form one group.
__device__ float *pick(float *a, float *b, bool first) { return first ? a : b; }
__global__ void k(float *out) {
    __shared__ float even[32], odd[32];
    pick(even, odd, (threadIdx.x & 1) == 0)[threadIdx.x >> 1] = 1.0f;
}
