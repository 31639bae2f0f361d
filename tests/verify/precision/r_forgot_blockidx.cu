// Each block overwrites the same first blockDim.x elements.
__global__ void init(float *v, int n) {
    int i = threadIdx.x;
    if (i < n) v[i] = 1.0f;
}
