//--blockDim=256 --gridDim=32
// 256-bin histogram of n values (the low 8 bits of each word are the bin). Each block clears a
// shared histogram, counts a grid-strided part of the input into it with shared atomics, and then
// adds its bins to the global histogram with global atomics. Barriers: after clearing (plain stores
// vs atomics) and after counting (atomics vs the plain reads of the merge).
__global__ void histogram_atomic(unsigned *hist, const unsigned *data, int n)
{
    __shared__ unsigned bins[256];
    int tid = threadIdx.x;
    bins[tid] = 0;
    __syncthreads();
    for (int i = (int)blockIdx.x * 256 + tid; i < n; i += 256 * (int)gridDim.x) {
        atomicAdd(&bins[data[i] & 255u], 1u);
    }
    __syncthreads();
    atomicAdd(&hist[tid], bins[tid]);
}
