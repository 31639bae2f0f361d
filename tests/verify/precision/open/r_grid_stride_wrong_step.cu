// The stride forgets gridDim: blocks overlap.
__global__ void scale(float *data, float s, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) {
        data[i] = data[i] * s;
    }
}
