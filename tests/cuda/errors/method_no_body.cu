// A method declared without a body: what it does to the object is not known.
struct Acc {
    float v;
    __device__ void add(float x);
};
__global__ void k(float *out) {
    Acc a;
    a.v = 0.0f;
    a.add(1.0f);
    out[threadIdx.x] = a.v;
}
