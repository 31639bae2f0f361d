#define N 4
#if N > 2
__global__ void k(int *A) { A[0] = N; }
