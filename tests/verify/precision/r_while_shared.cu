__global__ void drain(int *q, int n) {
    __shared__ int head;
    if (threadIdx.x == 0) head = 0;
    __syncthreads();
    while (head < n) {
        int h = head;
        q[h] = threadIdx.x;
        head = h + 1;
    }
}
