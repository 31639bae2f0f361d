__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    switch (i) { case 0: A[0] = 1; }
}
