//--blockDim=64 --gridDim=128
// A 1-D filter whose 16 coefficients are staged in shared memory by the first 16 threads, then
// summed by every thread with a range-based for. The barrier after staging was forgotten.
#define NTAPS 16

__global__ void fir(const float *coef, const float *x, float *y, int n)
{
    __shared__ float taps[NTAPS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < NTAPS)
        taps[threadIdx.x] = coef[threadIdx.x];
    float acc = 0.0f;
    int k = 0;
    for (const float c : taps) {
        if (i + k < n)
            acc += c * x[i + k];
        ++k;
    }
    y[i] = acc;
}
