__device__ void bump(float &x, float by) { x = x + by; }

__global__ void bump_all(float *v, float by, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) bump(v[i], by);
}
