// A `__shared__` pointer used before any pointer is stored in it: its array is not known.
__global__ void k(float *a) {
    __shared__ float *p;
    p[threadIdx.x] = 1.0f;
    p = a;
}
