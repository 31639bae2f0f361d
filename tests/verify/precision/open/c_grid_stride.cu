// Grid-stride loop: any grid size covers any n.
__global__ void scale(float *data, float s, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        data[i] = data[i] * s;
    }
}
