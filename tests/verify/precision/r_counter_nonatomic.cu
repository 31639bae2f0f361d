__global__ void count_pos(const int *v, int n, int *count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && v[i] > 0) {
        count[0] = count[0] + 1;
    }
}
