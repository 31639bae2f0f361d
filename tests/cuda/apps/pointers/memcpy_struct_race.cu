//--blockDim=64 --gridDim=1
// As memcpy_struct.cu without the barrier.
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
    vals[t] = stage[63 - t].val;
}
