__global__ void k(int *a) {
    int &r = a[threadIdx.x] + 1;
    r = 0;
}
