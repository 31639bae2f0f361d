// Pointers into different arrays compared: C leaves their order unspecified.
__global__ void k(float *a, float *b) {
    float *p = a + threadIdx.x;
    if (p < b)
        p[0] = 1.0f;
}
