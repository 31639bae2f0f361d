//--blockDim=128 --gridDim=8
// Type aliases with `using`, including an alias template.
using real = float;
template <typename T> using ptr = T *;
template <typename T> using cptr = const T *;

__global__ void scaleAdd(cptr<real> x, ptr<real> y, real a)
{
    unsigned i = blockIdx.x * 128 + threadIdx.x;
    y[i] = a * x[i] + y[i];
}
