// A member hiding its base's member of the same name: a name would denote two words.
struct Base { int n; };
struct Derived : Base { int n; };
__global__ void k(int *a) {
    Derived d;
    d.n = 1;
    a[threadIdx.x] = d.n;
}
