__device__ void inc(int &x) { x++; }

__global__ void k(int *a) {
    inc(a[threadIdx.x] + 1);
}
