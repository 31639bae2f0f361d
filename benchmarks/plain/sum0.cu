//--blockDim=256 --gridDim=64
// Block sum by a shared-memory tree (sequential addressing), used by every thread: each block
// centres its 256 elements, out[g] = in[g] - mean(block). The barrier at the top of each tree step
// orders the load / previous step before the reads; the barrier after the loop publishes s[0],
// written by thread 0, to all threads. Both are needed.
__global__ void sum0(float *out, const float *in)
{
    __shared__ float s[256];
    int tid = threadIdx.x;
    int g = (int)blockIdx.x * 256 + tid;
    float v = in[g];
    s[tid] = v;
    for (int stride = 128; stride > 0; stride >>= 1) {
        __syncthreads();
        if (tid < stride) {
            s[tid] += s[tid + stride];
        }
    }
    __syncthreads();
    out[g] = v - s[0] * 0.00390625f;
}
