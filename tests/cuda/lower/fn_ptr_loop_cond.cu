// A loop condition that calls through a function pointer (`more(i)`, `(*more)(i)`): evaluated
// into a local before the loop and at the end of each iteration, like a direct call.
typedef bool (*pred_t)(int);
__device__ bool below(int i) { return i < 64; }
__global__ void k(float *out)
{
    __shared__ float s[64];
    pred_t more = below;
    for (int i = threadIdx.x; more(i); i += 64)
        s[i] = out[i];
    __syncthreads();
    while ((*more)(threadIdx.x + 64))
        out[threadIdx.x] = s[63 - threadIdx.x];
}
