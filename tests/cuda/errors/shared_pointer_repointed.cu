// A `__shared__` pointer given a global and a shared array: no one array holds both.
__global__ void k(float *a) {
    __shared__ float s[64];
    __shared__ float *p;
    if (threadIdx.x == 0)
        p = a;
    __syncthreads();
    p[threadIdx.x] = 1.0f;
    __syncthreads();
    if (threadIdx.x == 0)
        p = s;
}
