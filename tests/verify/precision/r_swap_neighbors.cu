__global__ void swap_pairs(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) {
        int *pa = &a[i];
        int *pb = &a[i + 1];
        int t = pa[0];
        pa[0] = pb[0];
        pb[0] = t;
    }
}
