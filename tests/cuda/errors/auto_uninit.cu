__global__ void k(int *a) {
    auto x;
    a[threadIdx.x] = x;
}
