//--blockDim=64 --gridDim=1
__global__ void k(int *out, int mode) {
    __shared__ int s[64];
    int t = threadIdx.x;
    switch (mode) {
    case 0:
        s[t] = t;
        break;
    case 1:
        s[t] = 2 * t;
    default:
        s[t] += 1;
    }
    out[t] = s[63 - t];
}
