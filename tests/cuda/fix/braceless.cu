//--blockDim=64 --gridDim=1
__global__ void pingpong(int *out) {
    __shared__ int s[2][64];
    int t = threadIdx.x;
    s[0][t] = t;
    __syncthreads();
    for (int i = 0; i < 4; i++)
        s[(i + 1) % 2][t] = s[i % 2][(t + 1) % 64];
    out[t] = s[0][t];
}
