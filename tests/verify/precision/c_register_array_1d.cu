// Each thread keeps a small window of its inputs in registers and writes a weighted sum. No
// launch header: the block size is symbolic, and the register array alone must not make the
// kernel look 2-D or 3-D.
__global__ void window_sum(const float *in, float *out, int n)
{
    float win[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 3 < n) {
        for (int k = 0; k < 4; ++k)
            win[k] = in[i + k];
        out[i] = 0.4f * win[0] + 0.3f * win[1] + 0.2f * win[2] + 0.1f * win[3];
    }
}
