//--blockDim=128 --gridDim=32
// Exclusive prefix sum of each 256-element block, work-efficient (Blelloch): 128 threads, two
// elements each. Up-sweep builds partial sums in a balanced tree in place; thread 0 clears the
// root; the down-sweep pushes prefixes back down, swapping and adding at each level.
// Hand placement: a barrier at the top of each sweep step and one before the final stores.
// Note: the last up-sweep step and the first down-sweep step are executed by thread 0 alone, so a
// precise oracle may find a cheaper placement (e.g. the down-sweep barrier at the end of its body,
// which makes the barrier after the loop unnecessary: cost 200 instead of 201).
__global__ void scan_blelloch(float *out, const float *in)
{
    __shared__ float temp[256];
    int tid = threadIdx.x;
    int base = (int)blockIdx.x * 256;
    temp[2 * tid] = in[base + 2 * tid];
    temp[2 * tid + 1] = in[base + 2 * tid + 1];
    int offset = 1;
    for (int d = 128; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (tid == 0) {
        temp[255] = 0.0f;
    }
    for (int d = 1; d < 256; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    out[base + 2 * tid] = temp[2 * tid];
    out[base + 2 * tid + 1] = temp[2 * tid + 1];
}
