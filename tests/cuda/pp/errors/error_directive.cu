#ifndef BLOCK
#error "compile with -D BLOCK=..."
#endif
__global__ void k(int *A) { A[0] = BLOCK; }
