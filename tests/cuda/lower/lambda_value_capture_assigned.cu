__global__ void k(int *a)
{
    int off = blockIdx.x;
    auto idx = [=](int t) { return off + t; };
    off = off * 2;
    a[idx(threadIdx.x)] = 1;
}
