union Wide {
    double d;
    float2 pair;
};
__global__ void k(float *out) {
    union Wide w;
    out[threadIdx.x] = 0.0f;
}
