// A default argument naming a file-scope constant that a local of the caller shadows: clang
// resolved the name where the default is written, so the call reads the constant, not the local.
const int lo = 0;

__device__ int clampi(int v, int hi = 255, int l = lo)
{
    return v < l ? l : (v > hi ? hi : v);
}

__global__ void clampAll(int *b)
{
    int lo = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = clampi(b[i]) + lo;
}
