__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    A[i] = __shfl_down_sync(0xffffffff, i, 1);
}
