//--blockDim=64 --gridDim=1
__global__ void swap_in_warp(int *d) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = d[t];
    __syncwarp();
    d[t] = s[t ^ 1];
}
