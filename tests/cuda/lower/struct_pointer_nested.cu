// A struct parameter whose member is itself a struct holding pointers.
struct Span {
    float *data;
    int len;
};

struct Pair {
    Span a;
    float *out;
};

__global__ void addPair(Pair p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.a.len)
        p.out[i] = p.a.data[i];
}
