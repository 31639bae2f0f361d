__global__ void k(int *a)
{
    int w = ((int[2]){3, 4})[threadIdx.x & 1];
    a[threadIdx.x] = w;
}
