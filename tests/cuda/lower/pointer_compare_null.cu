// A pointer compared with a null pointer (an optional output, `if (p)`): the same unknown
// truth value for every pointer into one array, in every thread; both branches are checked.
#include <cstddef>
__global__ void k(float *a, float *sums, const float *bias) {
    float *p = a + threadIdx.x;
    if (p != nullptr)
        p[0] = 1.0f;
    float b = bias ? bias[threadIdx.x] : 0.0f;
    if (sums != NULL && threadIdx.x == 0)
        sums[blockIdx.x] = b;
    if (!bias)
        a[threadIdx.x] = 2.0f;
}
