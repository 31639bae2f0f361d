//--blockDim=64 --gridDim=1
// 2-2-loop-d2-both: 2 races, 2 barriers, loop nest of depth 2. Race 1 (A) is intra-iteration
// with respect to the inner loop: inner iteration j reads and writes row j of A (neighbour, then
// own), so it needs a barrier inside the inner loop body (the same row in the next outer iteration
// is ordered by the outer barrier). Race 2 (B, outer loop) is inter-iteration only: B is
// double-buffered per outer iteration (read row i%2 before the inner loop, write row (i+1)%2 after
// it), so it needs a barrier in the outer loop body between the write and the next read -- the
// outer level is enough (cheaper than a second barrier in the inner loop).
__global__ void micro_2_2_loop_d2_both(int *out, int n)
{
    __shared__ int A[4][65];
    __shared__ int B[2][65];
    int tid = threadIdx.x;
    int y = 0;
    for (int i = 0; i < n; i++) {
        __syncthreads();
        y = B[i % 2][tid + 1];
        for (int j = 0; j < 4; j++) {
            int x = A[j][tid + 1];
            __syncthreads();
            A[j][tid] = x + y;
        }
        B[(i + 1) % 2][tid] = y + i;
    }
    out[tid] = y;
}
