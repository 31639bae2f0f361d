__device__ void store_left(int *s, int t, int v) { s[t - 1] = v; }

__global__ void shift_left(const int *in, int *out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t > 0) store_left(s, t, in[t]);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t];
}
