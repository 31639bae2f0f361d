// A pointer compared with a null pointer: the model has no null, a pointer is an offset.
__global__ void k(float *a) {
    float *p = a + threadIdx.x;
    if (p != nullptr)
        p[0] = 1.0f;
}
