//--blockDim=64 --gridDim=1
// 1-1-main: 1 race, 1 barrier, straight-line code. Every thread stores its input element in
// shared memory and then reads its right neighbour's (cyclically): write/read race on A.
__global__ void micro_1_1_main(int *out, const int *in)
{
    __shared__ int A[64];
    int tid = threadIdx.x;
    A[tid] = in[tid];
    __syncthreads();
    out[tid] = A[(tid + 1) % 64];
}
