//--blockDim=64 --gridDim=1
// 1-1-loop-intra: 1 race, 1 barrier; the race exists only within a loop iteration. Iteration i
// reads and writes row i only (a neighbour's element, then its own), so different iterations never
// touch the same element; one barrier between the read and the write of each iteration.
__global__ void micro_1_1_loop_intra(int *out)
{
    __shared__ int A[4][65];
    int tid = threadIdx.x;
    int x = 0;
    for (int i = 0; i < 4; i++) {
        x = A[i][tid + 1];
        __syncthreads();
        A[i][tid] = x + i;
    }
    out[tid] = x;
}
