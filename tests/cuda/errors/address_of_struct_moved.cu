struct Span { int lo; int hi; };
__device__ int second_lo(Span *s) { return (s + 1)->lo; }
__global__ void k(int *A) {
    Span s;
    s.lo = threadIdx.x;
    s.hi = s.lo + 4;
    A[threadIdx.x] = second_lo(&s);
}
