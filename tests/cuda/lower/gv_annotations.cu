//pass
//--blockDim=256 --gridDim=32
// A GPUVerify-annotated block reduction: preconditions, loop invariants in the for condition,
// assertions and access annotations (only __requires/__assume are used by autosync).
#define BS 256

__device__ float pick(const float *in, unsigned i, unsigned n)
{
    __requires(n > 0);
    __ensures(__return_val_int() >= 0);
    return i < n ? in[i] : 0.0f;
}

__global__ void partialSums(const float *in, float *out, unsigned n, unsigned chunk)
{
    __requires(n % BS == 0);
    __requires(__is_pow2(chunk));
    __requires(__implies(n > 0, chunk <= n));
    __shared__ float acc[BS];
    __global_invariant(__write_implies(out, __write_offset_bytes(out) / sizeof(float) == blockIdx.x));
    __function_wide_invariant(__no_read(out));
    unsigned t = threadIdx.x;
    acc[t] = pick(in, blockIdx.x * BS + t, n);
    __syncthreads();
    for (unsigned s = BS / 2;
         __invariant(__is_pow2(s) || s == 0), __invariant(s <= BS / 2), s > 0;
         s >>= 1) {
        __reads_from(acc);
        __writes_to(acc);
        if (t < s)
            acc[t] += acc[t + s];
        __syncthreads();
    }
    __assume(t < BS);
    __assume(__other_int(t) != t);
    __assert(t < blockDim.x);
    if (t == 0)
        out[blockIdx.x] = acc[0];
}
