//--blockDim=128 --gridDim=32
// Radix-2 decimation-in-time FFT of 256 complex points per block (128 threads, one butterfly per
// thread per stage). Inputs are stored to shared memory in bit-reversed order; stage h (half size
// 1, 2, ..., 128) combines x[i0] and x[i1 = i0 + h] with the twiddle W_256^(pos * 128 / h), read
// from precomputed tables twr[k] = cos(-2*pi*k/256), twi[k] = sin(-2*pi*k/256), k < 128.
// The butterflies of one stage touch disjoint pairs: one barrier before each stage, one before the
// final stores.
__global__ void fft_butterfly(float *outRe, float *outIm, const float *inRe, const float *inIm, const float *twr, const float *twi)
{
    __shared__ float re[256];
    __shared__ float im[256];
    int tid = threadIdx.x;
    int base = (int)blockIdx.x * 256;
    for (int e = tid; e < 256; e += 128) {
        int rev = 0;
        for (int b = 0; b < 8; b++) {
            rev = rev | (((e >> b) & 1) << (7 - b));
        }
        re[rev] = inRe[base + e];
        im[rev] = inIm[base + e];
    }
    for (int h = 1; h < 256; h <<= 1) {
        __syncthreads();
        int pos = tid & (h - 1);
        int i0 = (tid / h) * 2 * h + pos;
        int i1 = i0 + h;
        float wr = twr[pos * (128 / h)];
        float wi = twi[pos * (128 / h)];
        float xr = re[i1] * wr - im[i1] * wi;
        float xi = re[i1] * wi + im[i1] * wr;
        float ar = re[i0];
        float ai = im[i0];
        re[i1] = ar - xr;
        im[i1] = ai - xi;
        re[i0] = ar + xr;
        im[i0] = ai + xi;
    }
    __syncthreads();
    outRe[base + tid] = re[tid];
    outIm[base + tid] = im[tid];
    outRe[base + tid + 128] = re[tid + 128];
    outIm[base + tid + 128] = im[tid + 128];
}
