// A reference and a pointer to a pointer variable: the callee re-points the caller's pointer.
__device__ void swap_bufs(float *&a, float *&b) { float *t = a; a = b; b = t; }
__device__ void advance(float **p, int k) { *p += k; }
__global__ void k(float *out) {
    __shared__ float x[64], y[64];
    float *cur = x, *nxt = y;
    swap_bufs(cur, nxt);
    advance(&cur, 2);
    cur[threadIdx.x] = nxt[threadIdx.x];
}
