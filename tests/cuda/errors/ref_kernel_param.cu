__device__ void inc(int &x) { x++; }

__global__ void k(int *a, int n) {
    inc(n);
    a[threadIdx.x] = n;
}
