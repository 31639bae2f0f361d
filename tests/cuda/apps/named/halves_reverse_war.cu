// Two halves of a block of 256 threads each reverse and double their own 128-element slice in
// place, synchronized by their own named barrier (1 for threads 0-127, 2 for 128-255). The
// second store overwrites an element another thread of the half may not have read yet.
#include <cuda_runtime.h>

__global__ void reverse_double_halves(const float *in, float *out)
{
    __shared__ float s[256];
    const int t = threadIdx.x;
    const int g = blockIdx.x * 256 + t;
    s[t] = in[g];
    if (t < 128) {
        asm volatile("bar.sync 1, 128;" ::: "memory");
        float x = s[127 - t];
        s[t] = 2.0f * x;
        asm volatile("bar.sync 1, 128;" ::: "memory");
        out[g] = s[(t + 1) % 128];
    } else {
        asm volatile("bar.sync 2, 128;" ::: "memory");
        float x = s[128 + (255 - t)];
        s[t] = 2.0f * x;
        asm volatile("bar.sync 2, 128;" ::: "memory");
        out[g] = s[128 + (t + 1) % 128];
    }
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * 256 * sizeof(float));
    cudaMalloc(&out, 64 * 256 * sizeof(float));
    reverse_double_halves<<<64, 256>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
