//--blockDim=256 --gridDim=32
// Inclusive prefix sum of each 256-element block (Hillis-Steele, in place). In the step with
// offset d every thread adds the element d to its left. Because the update is in place, each step
// needs two barriers: one before the reads (the previous step's writes must be visible) and one
// between the reads and the writes (no thread may overwrite a value another thread still reads).
__global__ void scan_hillis_steele(float *out, const float *in)
{
    __shared__ float buf[256];
    int tid = threadIdx.x;
    int base = (int)blockIdx.x * 256;
    buf[tid] = in[base + tid];
    for (int d = 1; d < 256; d *= 2) {
        __syncthreads();
        float t = buf[tid];
        if (tid >= d) {
            t += buf[tid - d];
        }
        __syncthreads();
        buf[tid] = t;
    }
    out[base + tid] = buf[tid];
}
