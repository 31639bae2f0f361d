__global__ void k(float *A) {
    float v = A[threadIdx.x];
    A[threadIdx.x] = __shfl_down_sync(0xffffffff, v);
}
