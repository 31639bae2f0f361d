//--blockDim=256 --gridDim=64
__global__ void zero(float *v, int n) {
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 256 * 64)
        v[i] = 0.0f;
}
