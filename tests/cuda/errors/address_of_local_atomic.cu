__global__ void k(int *A) {
    int count = 0;
    atomicAdd(&count, 1);
    A[threadIdx.x] = count;
}
