// Linear search in a thread's own register copy of a small table, stopping at the first hit.
// Correct: every thread writes only out[i]. The loop's `break` makes the verifier lose the
// counter's range; the register array's rows are the threads' own, so that costs no false race.
__global__ void first_above(const float *in, int *out, float limit, int n)
{
    float vals[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int k = 0; k < 8; ++k)
        vals[k] = in[8 * i + k];
    int found = -1;
    for (int k = 0; k < 8; ++k) {
        if (vals[k] > limit) {
            found = k;
            break;
        }
    }
    out[i] = found;
}
