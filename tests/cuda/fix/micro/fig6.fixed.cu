//--blockDim=64 --gridDim=1
// Fig. 6 of the AutoSync paper: a race between statements in two different conditionals (line 3,
// under tid%2==0, reads A[tid+2]; line 6, under tid%6==0, writes A[tid]). A barrier inside either
// conditional would diverge, so the only fix is a barrier between the two conditionals.
__global__ void fig6()
{
    __shared__ int A[66];
    int tid = threadIdx.x;
    int x = 0;
    if (tid % 2 == 0) {
        x = A[tid + 2];
    }
    __syncwarp();
    if (tid % 6 == 0) {
        A[tid] += x;
    }
}
