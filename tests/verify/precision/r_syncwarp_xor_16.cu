//--blockDim=64 --gridDim=1
// Partner t ^ 32 is in the other warp: __syncwarp does not order it.
__global__ void swap_halves(int *d) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = d[t];
    __syncwarp();
    d[t] = s[t ^ 32];
}
