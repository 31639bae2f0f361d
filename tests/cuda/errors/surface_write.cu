__global__ void k(cudaSurfaceObject_t s, float *out) {
    int x = threadIdx.x;
    surf2Dwrite(out[x], s, x * 4, blockIdx.x);
}
