//--blockDim=128 --gridDim=4
// Prefix flags: the condition uses the comma operator to load before testing.
__global__ void markRuns(const int *keys, int *heads)
{
    __shared__ int s[128];
    int t = threadIdx.x, g = blockIdx.x * 128 + t, prev;
    s[t] = keys[g];
    if (prev = (t > 0 ? s[t - 1] : -1), prev != s[t])
        heads[g] = 1;
    else
        heads[g] = 0;
}
