#define F(x) x
__global__ void k(int *A) {
    A[0] = F(1;
}
