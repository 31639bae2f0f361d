//--blockDim=64 --gridDim=8
// A device function that stages the next tile in shared memory is the loop's condition: it
// runs before the first iteration and again after every iteration. Each thread reads its
// neighbour's staged element, so the tile's write and the neighbour's read need a barrier
// between them in both directions (before the body reads it, before the next stage overwrites).
#define T 64

__device__ bool stageNext(float *tile, const float *in, int *k, int n) {
    if (*k >= n) {
        return false;
    }
    tile[threadIdx.x] = in[*k * T + threadIdx.x];
    *k += 1;
    return true;
}

__global__ void neighbourSums(float *out, const float *in, int n) {
    __shared__ float tile[T];
    float acc = 0.0f;
    int k = 0;
    while (stageNext(tile, in, &k, n)) {
        acc += tile[(threadIdx.x + 1) % T];
    }
    out[blockIdx.x * T + threadIdx.x] = acc;
}
