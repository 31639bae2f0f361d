__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    if (i > n)
        goto mid;
top:
    A[i] = 1;
mid:
    A[i] = 2;
    if (i < 3)
        goto top;
}
