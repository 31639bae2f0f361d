#define CAT(a, b) a ## b
__global__ void k(int *A) {
    A[0] = CAT(+, /);
}
