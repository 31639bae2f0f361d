#define BS (8 * 4)
const int W = BS / 2;
__device__ unsigned counter;
__device__ float table[W];

__global__ void exprs(unsigned *A, int n) {
    __shared__ float s[BS];
    int t = threadIdx.x + blockIdx.y * blockDim.z - gridDim.x;
    int x = t > 0 && A[t] > 0;
    x = t || A[t];
    x = t ? A[t] : 0;
    x = t ? 1 : 2;
    t > 0 ? A[t] = 1 : 0;
    x = A[x++];
    A[t]++;
    x = ++A[t] + A[A[t]];
    x = 3, t = x + 1;
    atomicAdd(&A[t], 1);
    x = atomicMax(&counter, x);
    atomicInc(&A[0], 16u);
    s[t] = table[t % W] + warpSize;
    x = -x + !x + ~x;
    n = n >> 1;
    x = umin(x, 3) + abs(x) + (int)sqrtf(s[0]);
    __threadfence();
}
