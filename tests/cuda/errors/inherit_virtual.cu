// A virtual base: where its members lie depends on the complete object, not on the type.
struct Base { float *data; };
struct Derived : virtual Base { int n; };
__global__ void k(float *a) {
    Derived d;
    d.data = a;
    d.data[threadIdx.x] = 1.0f;
}
