// Loops whose body ends in `break` (and never continues) run at most once: each is an `if` on
// the loop's condition. The last loop continues, so it stays a loop.
__global__ void once(float *out, const float *in, int n)
{
    __shared__ float s[64];
    for (int p = 0; p < n; ++p) {
        s[threadIdx.x] = in[p];
        __syncthreads();
        out[threadIdx.x] = s[63 - threadIdx.x];
        break;
    }
    while (true) {
        if (n > 4)
            break;
        out[threadIdx.x] = 1.0f;
        break;
    }
    for (int q = 0; q < n; ++q) {
        if (q == 2)
            continue;
        out[threadIdx.x] = in[q];
        break;
    }
}
