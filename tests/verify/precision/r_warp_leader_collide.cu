//--blockDim=128
__global__ void warp_ids(int *out) {
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    if (lane == 0) out[blockIdx.x * 2 + warp] = warp;
}
