//--blockDim=64 --gridDim=1
// memcpy of a struct from global memory into a local, then staged through shared memory.
#include <cstring>
struct Rec {
    float key;
    float val;
};

__global__ void gather(const Rec *recs, float *vals)
{
    __shared__ Rec stage[64];
    int t = threadIdx.x;
    Rec r;
    memcpy(&r, &recs[t], sizeof(Rec));
    stage[t] = r;
    __syncthreads();
    vals[t] = stage[63 - t].val;
}
