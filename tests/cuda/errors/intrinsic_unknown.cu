__global__ void k(unsigned *out) {
    out[threadIdx.x] = __reduce_add_sync(0xffffffffu, threadIdx.x);
}
