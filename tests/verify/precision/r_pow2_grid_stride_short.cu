//--blockDim=256 --gridDim=64
// The stride is one block, not the grid: blocks revisit each other's elements.
__global__ void zero(float *v, int n) {
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 256)
        v[i] = 0.0f;
}
