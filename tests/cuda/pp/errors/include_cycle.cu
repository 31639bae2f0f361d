#include "inc/cycle_a.cuh"
__global__ void k(int *A) { A[0] = 1; }
