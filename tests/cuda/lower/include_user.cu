#include "helpers.h"
__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    A[i] = 1;
}
