__device__ int &slot(int *a, int i) { return a[i]; }

__global__ void k(int *a) {
    a[0] = slot(a, threadIdx.x);
}
