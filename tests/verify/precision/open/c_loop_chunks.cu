// Every thread handles CHUNK consecutive elements.
#define CHUNK 4
__global__ void chunks(float *v, int n) {
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (int k = 0; k < CHUNK; k++) {
        if (base + k < n) v[base + k] *= 2.0f;
    }
}
