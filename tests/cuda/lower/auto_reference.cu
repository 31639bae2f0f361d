__global__ void k(int *a) {
    auto &r = a[threadIdx.x];
    r = 0;
}
