__global__ void k(int *A, int n) {
    switch (A[0]) {
    case 1: A[1] = 2; break;
    case n: A[2] = 3; break;
    }
}
