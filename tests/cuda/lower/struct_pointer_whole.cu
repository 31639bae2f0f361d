// A struct of pointers passed on whole to a device function: its pointer members are copied (each
// its array and offset).
struct Bufs {
    const float *in;
    float *out;
};

__device__ void copyOne(Bufs b, int i)
{
    b.out[i] = b.in[i];
}

__global__ void copyAll(Bufs p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    copyOne(p, i);
}
