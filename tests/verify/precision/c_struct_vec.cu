__global__ void norm2(const float2 *p, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 q = p[i];
        out[i] = q.x * q.x + q.y * q.y;
    }
}
