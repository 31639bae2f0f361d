// atomicCAS: one atomic read-modify-write (KPL `exch` with the value it may store); the
// compare value is evaluated, the result is the old value.
struct Cell { int key; int val; };

__global__ void k(int *lock, int *a, Cell *cells, int *out) {
    __shared__ int s[64];
    unsigned int t = threadIdx.x;
    atomicCAS(&s[t & 63], 0, 1);
    int old = atomicCAS(lock, a[t], (int)t);
    Cell *c = &cells[t];
    if (atomicCAS(&c->key, -1, old) == -1) {
        c->val = 1;
    }
    unsigned int u = atomicCAS((unsigned int *)(a + 1), 0u, t);
    out[t] = old + (int)u;
}
