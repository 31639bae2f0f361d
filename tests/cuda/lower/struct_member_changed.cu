// A pointer made from a struct parameter's member, then the member changed: the pointer keeps the
// value it was given (a local offset), not the expression re-read after the change.
struct View {
    int n;
    float *data;
};

__device__ void put(View m, float x) {
    float *p = m.data + 1;
    m.data += 16;
    p[threadIdx.x] = x;
}

__global__ void through_copy(View in) {
    put(in, 1.0f);
}

__global__ void kernel_field(View in, float *out) {
    float *p = out + in.n;
    in.n = 5;
    p[threadIdx.x] = 1.0f;
}
