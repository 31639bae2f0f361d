// A pointer to a pointer re-pointed: which variable `*pp` is would change.
__global__ void k(float *a, float *b) {
    float *p = a, *q = b;
    float **pp = &p;
    pp = &q;
    (*pp)[threadIdx.x] = 1.0f;
}
