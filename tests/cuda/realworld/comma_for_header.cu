//--blockDim=256 --gridDim=8
// Grid-stride dot-product partials; two induction variables advanced with the comma operator.
__global__ void dotPartial(const float *a, const float *b, float *partial, int n)
{
    __shared__ float s[256];
    float acc = 0.0f;
    int i, k;
    for (i = blockIdx.x * 256 + threadIdx.x, k = 0; i < n; i += 256 * 8, ++k)
        acc += a[i] * b[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = 128; w > 0; w >>= 1) {
        if (threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}
