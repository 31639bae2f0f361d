__global__ void k(int *A, int mode) {
    int t = threadIdx.x;
    int v = 0;
    switch (mode) {
    case 0:
        v = A[t];
    case 1:
        v += 1;
        break;
    default:
        v = 7;
        break;
    case 2: {
        v = 2;
    }
    }
    A[t] = v;
}
