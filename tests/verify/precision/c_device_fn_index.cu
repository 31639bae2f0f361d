__device__ int globalIndex() { return blockIdx.x * blockDim.x + threadIdx.x; }

__global__ void square(float *v, int n) {
    int i = globalIndex();
    if (i < n) v[i] = v[i] * v[i];
}
