//--blockDim=128 --gridDim=8
// A lambda that stores into the shared tile; the load of the neighbour is not synchronized.
__global__ void pairSums(const int *in, int *out)
{
    __shared__ int tile[128];
    auto stage = [&](int t, int v) { tile[t] = v; };
    int t = threadIdx.x;
    stage(t, in[blockIdx.x * 128 + t]);
    out[blockIdx.x * 128 + t] = tile[t] + tile[(t + 1) % 128];
}
