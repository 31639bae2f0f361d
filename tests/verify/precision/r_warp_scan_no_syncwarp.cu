//--blockDim=32 --gridDim=1
__global__ void warp_scan(int *data) {
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = data[lane];
    __syncwarp();
    for (int off = 1; off < 32; off *= 2) {
        int v = 0;
        if (lane >= off) v = s[lane - off];
        s[lane] += v;
    }
    data[lane] = s[lane];
}
