//--blockDim=64 --gridDim=1
// A neighbour read after a write: one barrier between them fixes it.
__global__ void shift(int *out) {
    __shared__ int buf[64];
    int t = threadIdx.x;
    buf[t] = t * 2;
    out[t] = buf[(t + 1) % 64];
}
