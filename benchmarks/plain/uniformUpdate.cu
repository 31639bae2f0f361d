//--blockDim=256 --gridDim=64
// Uniform update of a multi-block scan: block b adds the scanned sum of all preceding blocks,
// buffer[b], to each of its 256 elements. Thread 0 fetches the value into a shared variable; after
// the barrier every thread adds it to its element.
__global__ void uniformUpdate(unsigned *data, const unsigned *buffer, unsigned n)
{
    __shared__ unsigned blockOffset;
    unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        blockOffset = buffer[blockIdx.x];
    }
    __syncthreads();
    if (pos < n) {
        data[pos] += blockOffset;
    }
}
