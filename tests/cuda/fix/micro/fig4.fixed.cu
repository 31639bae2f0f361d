//--blockDim=64 --gridDim=1
// Fig. 4 of the AutoSync paper: the Fig. 2 race inside a loop (lines 1:5). The read (line 2) and
// the write (line 4) race both within an iteration and across iterations: one barrier after line 3
// (intra-iteration) and one at the start of the loop body (inter-iteration), as in Fig. 4 (right).
__global__ void fig4(int n)
{
    __shared__ int A[65];
    int tid = threadIdx.x;
    int x = 0;
    for (int i = 0; i < n; i++) {
        __syncthreads();
        x = A[tid + 1];
        __syncthreads();
        x = x + i;
        A[tid] += x;
    }
}
