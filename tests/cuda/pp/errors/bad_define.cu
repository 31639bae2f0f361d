// pp: -D 3X=1
__global__ void k(int *A) { A[0] = 1; }
