//--blockDim=64 --gridDim=32
// Generic inclusive scan (not instantiated) with ping-pong buffers but a barrier only before
// the loop: successive steps are not separated.
template <typename T>
__global__ void scan64(T *data)
{
    __shared__ T a[64], b[64];
    unsigned t = threadIdx.x;
    a[t] = data[blockIdx.x * 64 + t];
    __syncthreads();
    for (unsigned off = 1; off < 64; off *= 4) {
        b[t] = t >= off ? a[t] + a[t - off] : a[t];
        a[t] = t >= 2 * off ? b[t] + b[t - 2 * off] : b[t];
    }
    __syncthreads();
    data[blockIdx.x * 64 + t] = a[t];
}
