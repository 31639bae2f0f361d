typedef float real;
typedef unsigned int uint32;
#define SH(name) s_##name
#define DECL(ty, name, n) __shared__ ty SH(name)[n]
#define FIRST(a, ...) a
#define SUM(...) add3(__VA_ARGS__)
#define add3(a, b, c) ((a) + (b) + (c))
#define SWAP(a, b) { real tmp = a; a = b; b = tmp; }

__global__ void k(real *A, uint32 n) {
    DECL(real, vals, 64);
    uint32 i = threadIdx.x;
    real v = (real)FIRST(i, n, 7);
    SH(vals)[i] = SUM(v, v, 1.0f);
    real w = A[i];
    SWAP(v, w);
    A[i] = v + w;
}
