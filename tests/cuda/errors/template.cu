template <int B>
__global__ void k(int *A) {
    A[threadIdx.x] = B;
}
