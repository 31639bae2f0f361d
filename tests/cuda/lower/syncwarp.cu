#define FULL_MASK 0xffffffff
// __syncwarp() and the full mask are warp barriers (`syncwarp;`); any other mask orders nothing
// and lowers to no statement (its mask is still evaluated: the read of M stays).
__global__ void k(int *A, const unsigned *M) {
    int i = threadIdx.x;
    A[i] = i;
    __syncwarp();
    A[i ^ 1] = 0;
    __syncwarp(FULL_MASK);
    A[i] = 1;
    __syncwarp(0xffffffffu);
    __syncwarp(0x0000ffff);
    __syncwarp(M[0]);
    A[i] = 2;
}
