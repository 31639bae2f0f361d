__global__ void halve(int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = v[i];
        do {
            x = x / 2;
        } while (x > 100);
        v[i] = x;
    }
}
