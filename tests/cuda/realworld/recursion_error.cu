//--blockDim=64 --gridDim=1
// Recursive device function: rejected with a diagnostic.
__device__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__global__ void fibs(int *out)
{
    out[threadIdx.x] = fib(threadIdx.x % 16);
}
