// Shared memory declared as ints and read as bytes: byte 5 is inside int 1. A view narrower
// than the array's elements would make one element several words of the view, which memory
// by elements does not model, so the cast is refused rather than modelled wrongly.
__global__ void unpack(unsigned char *out)
{
    __shared__ int words[64];
    words[threadIdx.x % 64] = threadIdx.x;
    __syncthreads();
    unsigned char *bytes = (unsigned char *)words;
    out[threadIdx.x] = bytes[threadIdx.x];
}
int main()
{
    unsigned char *o;
    cudaMalloc(&o, 256);
    unpack<<<1, 256>>>(o);
    return 0;
}
