//--blockDim=128 --gridDim=32
// Row sums of a rows x cols row-major matrix. Block b handles rows b, b + gridDim.x, ...; for each
// row every thread first accumulates many elements (columns tid, tid + 128, ...) in a register,
// then the 128 partial sums are added by a shared-memory tree and thread 0 stores the row sum.
// Uses dynamic shared memory (launch with 128 * sizeof(float) bytes). The barrier at the end of
// the row loop keeps the next row's stores from overwriting partial sums thread 0 is still reading.
__global__ void sum1(float *rowSums, const float *M, int rows, int cols)
{
    extern __shared__ float partial[];
    int tid = threadIdx.x;
    for (int r = (int)blockIdx.x; r < rows; r += (int)gridDim.x) {
        float acc = 0.0f;
        for (int c = tid; c < cols; c += 128) {
            acc += M[r * cols + c];
        }
        partial[tid] = acc;
        for (int s = 64; s > 0; s >>= 1) {
            __syncthreads();
            if (tid < s) {
                partial[tid] += partial[tid + s];
            }
        }
        if (tid == 0) {
            rowSums[r] = partial[0];
        }
        __syncthreads();
    }
}
