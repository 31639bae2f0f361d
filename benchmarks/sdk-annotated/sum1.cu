//--blockDim=128 --gridDim=32
// Row sums of a rows x cols matrix: block b handles rows b, b + gridDim.x, ...; per row each thread
// accumulates a strided slice in a register, the block folds the partial sums in dynamic shared
// memory (SharedMemory<float>), and thread 0 stores the row sum.

// Typed view of the kernel's dynamic shared memory (one extern array for every T).
template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <unsigned int blockSize>
__global__ void sum1(float *rowSums, const float *M, int rows, int cols)
{
    __requires(blockDim.x == blockSize);
    float *partial = SharedMemory<float>();
    const unsigned int tid = threadIdx.x;

    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        float acc = 0.0f;
        for (int c = tid; c < cols; c += blockSize)
            acc += M[r * cols + c];
        partial[tid] = acc;

        for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
            __syncthreads();
            if (tid < s) partial[tid] += partial[tid + s];
        }

        if (tid == 0) rowSums[r] = partial[0];
        // Thread 0 reads partial[1] in the last step; the next row's store of partial[1] must wait.
        __syncthreads();
    }
}

template __global__ void sum1<128>(float *rowSums, const float *M, int rows, int cols);
