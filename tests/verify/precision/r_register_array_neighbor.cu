// Like a register-window sum, but each thread also writes its right neighbour's output slot:
// threads i and i + 1 both write out[i + 1].
__global__ void window_sum_spill(const float *in, float *out, int n)
{
    float win[2];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 2 < n) {
        win[0] = in[i];
        win[1] = in[i + 1];
        out[i] = win[0];
        out[i + 1] = win[1] * 2.0f;
    }
}
