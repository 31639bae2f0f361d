// A default-constructed struct's pointer member read before anything is assigned to it: its
// array is not known (it is fixed at the member's first assignment).
struct View {
    float *data;
    int n;
};

__global__ void k(float *a) {
    View v;
    for (int i = 0; i < 4; ++i) {
        if (i > 0)
            v.data[threadIdx.x] = 1.0f;
        v.data = a + i * 32;
    }
}
