// A thread-local array of pointers: one offset per element, a subscript a choice among them.
__global__ void k(float *x, float *y) {
    float *bufs[2] = { x, y };
    int t = threadIdx.x;
    bufs[1] = bufs[0] + 1;
    bufs[t & 1][t] = 1.0f;
}
