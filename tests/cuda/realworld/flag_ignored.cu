//pass
//--blockDim=32 --gridDim=64 --loop-unwind=4 --only-intra-group --equality-abstraction
// Per-thread polynomial evaluation (Horner), coefficients in constant memory.
__constant__ float coef[8];

__global__ void horner(const float *x, float *y)
{
    int i = blockIdx.x * 32 + threadIdx.x;
    float v = x[i];
    float acc = coef[7];
    for (int k = 6; k >= 0; --k)
        acc = acc * v + coef[k];
    y[i] = acc;
}
