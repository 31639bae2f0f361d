//--blockDim=256 --gridDim=128
// Row softmax, one row per block of 8 warps: warp maxima and sums by butterfly shuffles, the
// warp results through shared memory, the first warp combines them. The block barriers
// between the phases are missing.
#define WARP 32
#define FULL 0xffffffffu
#define COLS 1024

__device__ __forceinline__ float warpMax(float v) {
    for (int m = WARP / 2; m > 0; m >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL, v, m));
    return v;
}

__device__ __forceinline__ float warpSum(float v) {
    for (int m = WARP / 2; m > 0; m >>= 1)
        v += __shfl_xor_sync(FULL, v, m);
    return v;
}

__global__ void softmax_rows(const float *x, float *y) {
    __shared__ float red[8];
    __shared__ float stat[2];
    int t = threadIdx.x, lane = t % WARP, w = t / WARP;
    int row = blockIdx.x * COLS;

    float m = -1e30f;
    for (int c = t; c < COLS; c += 256)
        m = fmaxf(m, x[row + c]);
    m = warpMax(m);
    if (lane == 0)
        red[w] = m;
    __syncthreads();
    if (w == 0) {
        m = lane < 8 ? red[lane] : -1e30f;
        m = warpMax(m);
        if (lane == 0)
            stat[0] = m;
    }
    __syncthreads();
    float mx = stat[0];

    float s = 0.0f;
    for (int c = t; c < COLS; c += 256)
        s += expf(x[row + c] - mx);
    s = warpSum(s);
    if (lane == 0)
        red[w] = s;
    __syncthreads();
    if (w == 0) {
        s = lane < 8 ? red[lane] : 0.0f;
        s = warpSum(s);
        if (lane == 0)
            stat[1] = s;
    }
    __syncthreads();
    float inv = 1.0f / stat[1];
    for (int c = t; c < COLS; c += 256)
        y[row + c] = expf(x[row + c] - mx) * inv;
}
