__device__ void bump(int *p) { *(p + 1) = 0; }
__global__ void k(int *A) {
    int x = A[threadIdx.x];
    bump(&x);
    A[threadIdx.x] = x;
}
