// A struct's pointer member given a pointer into one array, then into another: a pointer is
// always into one array, so the second assignment is refused rather than guessed.
struct View {
    float *data;
    int n;
};

__global__ void k(float *a, float *b) {
    View v;
    v.n = 32;
    v.data = a;
    if (threadIdx.x >= v.n)
        v.data = b;
    v.data[threadIdx.x] = 1.0f;
}
