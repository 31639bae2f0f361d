//--blockDim=64 --gridDim=1
__global__ void shift(float *d) {
    __shared__ float s[64];
    unsigned int t = threadIdx.x;
    float &mine = s[t];
    mine = d[t];
    __syncthreads();
    const float &next = s[(t + 1) & 63];
    d[t] = mine + next;
}
