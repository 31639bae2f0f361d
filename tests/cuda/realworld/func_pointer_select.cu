//--blockDim=64 --gridDim=1
// Operator chosen through a device function pointer (`useMul ? mulf : addf`): each thread
// combines its own elements, whichever function the pointer holds.
typedef float (*binop_t)(float, float);
__device__ float addf(float a, float b) { return a + b; }
__device__ float mulf(float a, float b) { return a * b; }

__global__ void combine(float *a, const float *b, int useMul)
{
    binop_t op = useMul ? mulf : addf;
    a[threadIdx.x] = op(a[threadIdx.x], b[threadIdx.x]);
}
