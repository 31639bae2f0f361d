//--blockDim=64 --gridDim=1
// __syncwarp orders one warp only: lane 32 reads what lane 31 (another warp) wrote.
__global__ void shift(int *data) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncwarp();
    if (t > 0) data[t] = s[t - 1];
}
