//--blockDim=256 --gridDim=1
__global__ void reverse(int *d) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = d[t];
    d[t] = s[255 - t];
}
