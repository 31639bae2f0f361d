//--blockDim=64 --gridDim=1
// Fig. 7 of the AutoSync paper: two races (line 1 vs 3 on A, line 2 vs 4 on B); a single barrier
// after line 2 fixes both.
__global__ void fig7()
{
    __shared__ int A[65];
    __shared__ int B[65];
    int tid = threadIdx.x;
    int x = A[tid + 1];
    int y = B[tid + 1];
    __syncthreads();
    A[tid] = x + y;
    B[tid] = x - y;
}
