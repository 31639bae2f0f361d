__global__ void k(float *F) {
    float f = 1.0f;
    F[f] = 1.0f;
}
