//--blockDim=128 --gridDim=8
// Clamps values and (wrongly) synchronizes only the threads that clamped.
__global__ void clampThenSync(float *v, float limit)
{
    unsigned i = blockIdx.x * 128 + threadIdx.x;
    float x = v[i];
    if (x > limit) {
        v[i] = limit;
        __syncthreads();
    }
    __assert(threadIdx.x < 128);
}
