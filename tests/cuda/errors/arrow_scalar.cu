__global__ void k(int *A) {
    int *p = &A[threadIdx.x];
    p->x = 1;
}
