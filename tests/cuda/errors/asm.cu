__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    asm("bar.sync 0;");
}
