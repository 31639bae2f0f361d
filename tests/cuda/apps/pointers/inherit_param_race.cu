//--blockDim=64 --gridDim=2
// As inherit_param.cu, but two threads share each element.
struct Base {
    float *data;
};

struct Sized : Base {
    int n;
};

__global__ void scale(Sized v, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < v.n)
        v.data[i / 2] *= f;
}
