// Inclusive bound: threads 0..last.
__global__ void upto(int *a, int last) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= last) a[i] = i;
}
