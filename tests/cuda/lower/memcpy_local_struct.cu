// memcpy of a whole struct to and from locals: one access in memory, unknown words in locals.
#include <cstring>
struct Rec { float key; float val; };
__global__ void k(const Rec *in, Rec *out) {
    Rec r;
    memcpy(&r, &in[threadIdx.x], sizeof(Rec));
    r.val += 1.0f;
    memcpy(&out[threadIdx.x], &r, sizeof(r));
}
