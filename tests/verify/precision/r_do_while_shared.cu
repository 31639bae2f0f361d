__global__ void spin(int *v) {
    __shared__ int x;
    x = 0;
    __syncthreads();
    do {
        x = x + 1;
    } while (x < 10);
    v[blockIdx.x] = x;
}
