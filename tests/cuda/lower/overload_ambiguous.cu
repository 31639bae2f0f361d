typedef unsigned int uint32;
__device__ int scale(int x) { return 2 * x; }
__device__ unsigned scale(unsigned x) { return 2u * x; }

__global__ void k(unsigned *out, uint32 n) {
    // `n` may be an `unsigned short` (promoted: the int overload) or an `unsigned int` (exact):
    // through the typedef, autosync knows only that it is unsigned.
    out[threadIdx.x] = scale(n);
}
