__global__ void k(int *A, int *B, int n) {
    __shared__ int s[256];
    int i = threadIdx.x;
    if (i >= n) return;
    s[i] = A[i];
    __syncthreads();
    B[i] = s[255 - i];
}
