// Methods of the file's structs inlined with `this` bound to the object: in locals, in memory
// (an element), through a pointer (`p->m()`, `this->m()`), a base class's method.
struct Acc {
    float v;
    __device__ void add(float x) { v += x; }
    __device__ float get() const { return this->v; }
    __device__ float twice() const { return 2.0f * get(); }
};
struct Named : Acc { int id; };
__global__ void k(Acc *out) {
    __shared__ Acc acc[64];
    Named loc;
    loc.v = 0.0f;
    loc.id = threadIdx.x;
    loc.add(1.0f);
    acc[threadIdx.x].v = loc.get();
    Acc *p = &out[threadIdx.x];
    p->add(acc[threadIdx.x].twice());
}
