//--blockDim=64 --gridDim=1 -DN=64 --no-inline
// Reverse in shared memory; the size macro comes from the header.
__global__ void reverse(int *d)
{
    __shared__ int s[N];
    int t = threadIdx.x;
    s[t] = d[t];
    d[t] = s[N - t - 1];
}
