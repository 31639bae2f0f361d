//--blockDim=64 --gridDim=1
// 2-1-loop-d2-intra: 2 races (on A and on B), 1 barrier, loop nest of depth 2; both races are
// intra-iteration only: iteration (i, j) reads and writes row 4*i + j of A and of B only. One
// barrier between the reads and the writes in the inner loop body fixes both.
__global__ void micro_2_1_loop_d2_intra(int *out)
{
    __shared__ int A[16][65];
    __shared__ int B[16][65];
    int tid = threadIdx.x;
    int x = 0;
    int y = 0;
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) {
            x = A[i * 4 + j][tid + 1];
            y = B[i * 4 + j][tid + 1];
            __syncthreads();
            A[i * 4 + j][tid] = x + y;
            B[i * 4 + j][tid] = x - y;
        }
    }
    out[tid] = x + y;
}
