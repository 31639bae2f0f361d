#include "no_such_header.cuh"
__global__ void k(int *A) { A[0] = 1; }
