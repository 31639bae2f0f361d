//--blockDim=64 --gridDim=128
// Packs 4 floats per thread into an aligned struct; restrict-qualified pointers throughout.
struct __align__(16) Quad {
    float a, b, c, d;
};

__global__ void pack4(const float *__restrict__ in, struct Quad *__restrict__ out,
                      volatile int *const __restrict__ done)
{
    const int i = blockIdx.x * 64 + threadIdx.x;
    const float *const __restrict__ p = in + 4 * i;
    struct Quad q;
    q.a = p[0];
    q.b = p[1];
    q.c = p[2];
    q.d = p[3];
    out[i] = q;
    if (threadIdx.x == 0)
        done[blockIdx.x] = 1;
}
