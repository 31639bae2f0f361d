// A pointer member of a struct in global memory: the host may have stored any pointer there.
struct Views { float *src; float *dst; };
__global__ void k(Views *v) {
    v[0].dst[threadIdx.x] = v[0].src[threadIdx.x];
}
