__device__ int g(int x);
__device__ int f(int x) { return x > 0 ? g(x - 1) : 0; }
__device__ int g(int x) { return f(x); }
__global__ void k(int *A) {
    A[threadIdx.x] = f(3);
}
