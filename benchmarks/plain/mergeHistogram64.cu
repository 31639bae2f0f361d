//--blockDim=128 --gridDim=64
// Merge of per-block partial 64-bin histograms: block b owns bin b. Each of the 128 threads sums bin
// b over a strided subset of the `count` partial histograms (partial[h * 64 + b]); a shared-memory
// tree reduction adds the 128 sums and thread 0 stores the merged bin.
__global__ void mergeHistogram64(unsigned *histogram, const unsigned *partial, int count)
{
    __shared__ unsigned data[128];
    int tid = threadIdx.x;
    unsigned sum = 0;
    for (int h = tid; h < count; h += 128) {
        sum += partial[h * 64 + (int)blockIdx.x];
    }
    data[tid] = sum;
    for (int s = 64; s > 0; s >>= 1) {
        __syncthreads();
        if (tid < s) {
            data[tid] += data[tid + s];
        }
    }
    if (tid == 0) {
        histogram[blockIdx.x] = data[0];
    }
}
