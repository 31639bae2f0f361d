//pass
//--blockDim=256 --gridDim=64
// Block sums, sequential addressing, written the way GPUVerify's annotated samples are:
// a precondition on the size and loop invariants in the loop condition.
#define BS 256

__global__ void blockSums(const float *in, float *out, unsigned n)
{
    __requires(n % BS == 0);
    __shared__ float sdata[BS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * BS + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = BS / 2;
         __invariant(s <= BS / 2), __invariant(__implies(s != 0, __is_pow2(s))), s > 0;
         s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
