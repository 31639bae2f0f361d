//--blockDim=256 --gridDim=1
__global__ void tree_max(int *v) {
    __shared__ int s[256];
    s[threadIdx.x] = v[threadIdx.x];
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride && s[threadIdx.x + stride] > s[threadIdx.x])
            s[threadIdx.x] = s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) v[0] = s[0];
}
