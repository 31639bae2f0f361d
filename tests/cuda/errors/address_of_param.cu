__device__ void clear(int *p) { *p = 0; }
__global__ void k(int *A, int n) {
    clear(&n);
    A[threadIdx.x] = n;
}
