#include "inc/bad_if.cuh"
__global__ void k(int *A) { A[0] = 1; }
