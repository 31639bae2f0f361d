#define AT(r, c) ((r) * 16 + (c))
__global__ void k(int *A) {
    A[AT(threadIdx.x)] = 1;
}
