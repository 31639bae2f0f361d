#if 1
#else
#else
#endif
__global__ void k(int *A) { A[0] = 1; }
