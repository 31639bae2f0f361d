//--blockDim=64 --gridDim=1
// 2-2-loop-both: 2 races, 2 barriers, one loop. Race 1 (A) is intra-iteration only: iteration i
// reads and writes row i of A. Race 2 (B) is inter-iteration only: B is double-buffered (read row
// i%2, write row (i+1)%2). Race 1 needs a barrier between the reads and the writes; race 2 needs a
// barrier between the write of B and the next iteration's read of B.
__global__ void micro_2_2_loop_both(int *out)
{
    __shared__ int A[4][65];
    __shared__ int B[2][65];
    int tid = threadIdx.x;
    int x = 0;
    int y = 0;
    for (int i = 0; i < 4; i++) {
        __syncthreads();
        y = B[i % 2][tid + 1];
        x = A[i][tid + 1];
        __syncthreads();
        A[i][tid] = x + y;
        B[(i + 1) % 2][tid] = x;
    }
    out[tid] = x + y;
}
