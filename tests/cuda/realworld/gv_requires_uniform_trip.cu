//--blockDim=256 --gridDim=1
// Block-stride accumulation into shared memory, synchronized every round; the precondition
// makes every thread run the same number of rounds.
__global__ void roundsOfSums(const float *in, float *out, int n)
{
    __requires(n % 256 == 0);
    __requires(n <= (1 << 20));
    __shared__ float s[256];
    float acc = 0.0f;
    for (int i = threadIdx.x; __invariant(i % 256 == threadIdx.x), i < n; i += 256) {
        s[threadIdx.x] = in[i];
        __syncthreads();
        acc += s[255 - threadIdx.x];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}
