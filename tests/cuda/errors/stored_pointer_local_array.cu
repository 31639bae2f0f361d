// Pointer members of structs in a thread-local array: each thread's offsets, read back from its
// own row, would be unknowns.
struct Step { float *src; float *dst; };
__global__ void k(float *a, float *b) {
    Step steps[2];
    steps[0].src = a;
    steps[0].dst[threadIdx.x] = steps[0].src[threadIdx.x];
}
