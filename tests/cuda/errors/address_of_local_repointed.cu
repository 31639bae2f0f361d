__global__ void k(int *A) {
    int a = 0, b = 1;
    int *p = &a;
    if (threadIdx.x > 3) {
        p = &b;
    }
    A[threadIdx.x] = *p;
}
