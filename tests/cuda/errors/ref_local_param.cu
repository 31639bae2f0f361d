__global__ void k(int *a, int n) {
    int &r = n;
    r = a[threadIdx.x];
}
