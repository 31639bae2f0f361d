// A `__shared__` scalar read as bytes: a scalar is accessed without a view, so its word cannot be
// split into the bytes of a narrower type (an array can: issue #37). Refused rather than
// modelled wrongly.
__global__ void unpack(unsigned char *out)
{
    __shared__ int count;
    if (threadIdx.x == 0)
        count = 0x01020304;
    __syncthreads();
    unsigned char *bytes = (unsigned char *)&count;
    out[threadIdx.x] = bytes[threadIdx.x % 4];
}
int main()
{
    unsigned char *o;
    cudaMalloc(&o, 256);
    unpack<<<1, 256>>>(o);
    return 0;
}
