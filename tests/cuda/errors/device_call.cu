__device__ int f(int x) { return x; }
__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    A[i] = f(i);
}
