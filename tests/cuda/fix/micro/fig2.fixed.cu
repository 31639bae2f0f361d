//--blockDim=64 --gridDim=1
// Fig. 2 of the AutoSync paper: each thread reads its right neighbour's element (line 1) and then
// updates its own element (line 3). One race (line 1 vs line 3), fixed by one barrier after line 2.
__global__ void fig2(int i)
{
    __shared__ int A[65];
    int tid = threadIdx.x;
    int x = A[tid + 1];
    __syncthreads();
    x = x + i;
    A[tid] += x;
}
