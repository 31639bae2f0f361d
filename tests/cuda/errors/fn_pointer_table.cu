typedef float (*unary_t)(float);
__device__ float twice(float x) { return 2.0f * x; }
__device__ float half_of(float x) { return 0.5f * x; }
__device__ unary_t table[2] = {twice, half_of};
__global__ void k(float *out, int n) {
    out[threadIdx.x] = table[n & 1](1.0f);
}
