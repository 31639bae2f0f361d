//--blockDim=64 --gridDim=1
// A local array of structs holding pointers: the two steps of a ping-pong.
struct Step {
    const float *src;
    float *dst;
};

__global__ void twice(float *out)
{
    __shared__ float a[64], b[64];
    int t = threadIdx.x;
    a[t] = (float)t;
    __syncthreads();
    Step steps[2] = { { a, b }, { b, a } };
    for (int k = 0; k < 2; ++k) {
        steps[k].dst[t] = steps[k].src[(t + 1) % 64];
        __syncthreads();
    }
    out[t] = a[t];
}
