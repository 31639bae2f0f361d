__global__ void swap_pairs(int *a, int *b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int *pa = &a[i];
        int *pb = &b[i];
        int t = pa[0];
        pa[0] = pb[0];
        pb[0] = t;
    }
}
