__global__ void k(int *a)
{
    auto sq = [](auto v) { return v * v; };
    a[threadIdx.x] = sq(threadIdx.x);
}
