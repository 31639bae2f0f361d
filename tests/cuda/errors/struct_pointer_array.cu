// An array of structs that hold pointers: each element's pointers are not modelled.
struct Bufs {
    const float *in;
    float *out;
};

__global__ void copyMany(const Bufs *bs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        bs[blockIdx.y].out[i] = bs[blockIdx.y].in[i];
}
