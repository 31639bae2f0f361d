//--blockDim=256 --gridDim=256
// Merge of per-block partial 256-bin histograms: block b owns bin b. Each thread sums bin b over a
// strided subset of the `count` partial histograms (partial[h * 256 + b]); the 256 per-thread sums
// are then added by a shared-memory tree reduction and thread 0 stores the total.
__global__ void mergeHistogram256(unsigned *histogram, const unsigned *partial, int count)
{
    __shared__ unsigned data[256];
    int tid = threadIdx.x;
    unsigned sum = 0;
    for (int h = tid; h < count; h += 256) {
        sum += partial[h * 256 + (int)blockIdx.x];
    }
    data[tid] = sum;
    for (int s = 128; s > 0; s >>= 1) {
        __syncthreads();
        if (tid < s) {
            data[tid] += data[tid + s];
        }
    }
    if (tid == 0) {
        histogram[blockIdx.x] = data[0];
    }
}
