__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    __syncwarp(0xffffffff, i);
}
