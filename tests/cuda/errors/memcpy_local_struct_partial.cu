// memcpy of part of a struct held in locals: its words are not split into bytes.
#include <cstring>
struct Rec { float key; float val; };
__global__ void k(const Rec *in, float *out) {
    Rec r;
    memcpy(&r, &in[threadIdx.x], sizeof(float));
    out[threadIdx.x] = r.key;
}
