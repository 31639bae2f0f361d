//--blockDim=256 --gridDim=64
// A type-generic kernel nobody instantiates in this file: analysed once for every element type.
// Pointer alias templates and type aliases inside the template.
template <typename T> using dptr = T *;
typedef const float *cfloat_ptr;

template <typename T, typename Acc>
__global__ void blockSum(dptr<const T> in, Acc *out, cfloat_ptr weights)
{
    typedef Acc acc_t;
    using elem = T;
    __shared__ acc_t partial[256];
    unsigned t = threadIdx.x;
    elem v = in[blockIdx.x * 256 + t];
    partial[t] = (acc_t)v * weights[t];
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (t < s)
            partial[t] = partial[t] + partial[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = partial[0];
}
