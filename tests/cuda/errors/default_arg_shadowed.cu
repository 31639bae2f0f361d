// A default argument naming a file-scope constant that a local of the caller shadows: lowered
// at the call it would read the local, so it is refused.
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
