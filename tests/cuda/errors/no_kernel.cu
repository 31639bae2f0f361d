__device__ int f(int x) { return x; }
