__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    struct P { int x; } p;
}
