__device__ int more(int i, int n) { return i < n; }
__global__ void k(int *A, int n) {
    int i = 0;
    while (more(i, n)) {
        A[i] = 1;
        i++;
    }
}
