//--blockDim=256 --gridDim=1
// The same block-stride rounds without a precondition on n.
__global__ void roundsOfSums(const float *in, float *out, int n)
{
    __shared__ float s[256];
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += 256) {
        s[threadIdx.x] = in[i];
        __syncthreads();
        acc += s[255 - threadIdx.x];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}
