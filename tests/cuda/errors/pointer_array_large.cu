// An array of pointers with more elements than are modelled one by one.
__global__ void k(float *a) {
    float *rows[32];
    for (int i = 0; i < 32; ++i)
        rows[i] = a + i * 64;
    rows[threadIdx.x & 31][threadIdx.x] = 1.0f;
}
