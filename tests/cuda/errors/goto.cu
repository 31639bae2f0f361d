__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    if (i > n) {
        goto out;
    }
    A[i] = 1;
    {
    out:
        A[0] = 2;
    }
}
