//--blockDim=64 --gridDim=2
// A kernel parameter of a derived struct whose base holds the pointer.
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
        v.data[i] *= f;
}
