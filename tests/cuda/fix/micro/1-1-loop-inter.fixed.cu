//--blockDim=64 --gridDim=1
// 1-1-loop-inter: 1 race, 1 barrier; the race exists only between loop iterations. The loop
// double-buffers A: iteration i reads row i%2 and writes row (i+1)%2, so within an iteration the
// read and the write never meet, but the write of iteration i is read by a neighbour in iteration
// i+1 (and the row read in iteration i is overwritten in iteration i+1): one barrier per iteration.
__global__ void micro_1_1_loop_inter(int *out, int n)
{
    __shared__ int A[2][65];
    int tid = threadIdx.x;
    int x = 0;
    for (int i = 0; i < n; i++) {
        __syncthreads();
        x = A[i % 2][tid + 1];
        A[(i + 1) % 2][tid] = x + i;
    }
    out[tid] = x;
}
