__global__ void evens_odds(int *a, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {
        if (t % 2 == 0) a[t] = 0;
        else a[t] = 1;
    }
}
