#if 1 / 0
#endif
__global__ void k(int *A) { A[0] = 1; }
