//--blockDim=256 --gridDim=1
__global__ void reverse(int *d, int n) {
    __shared__ int s[256];
    int t = threadIdx.x;
    int tr = n - t - 1;
    s[t] = d[t];
    __syncthreads();
    d[t] = s[tr];
}
