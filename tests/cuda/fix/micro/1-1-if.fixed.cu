//--blockDim=64 --gridDim=1
// 1-1-if: 1 race, 1 barrier. The upper half of the threads writes A inside one conditional; the
// lower half reads those elements inside a second conditional (with an else branch). A barrier
// inside either conditional would diverge; the only valid place is between the two conditionals.
__global__ void micro_1_1_if(int *out, const int *in)
{
    __shared__ int A[64];
    int tid = threadIdx.x;
    int x = in[tid];
    if (tid >= 32) {
        A[tid] = x * 2;
    }
    __syncthreads();
    if (tid < 32) {
        out[tid] = x + A[tid + 32];
    } else {
        out[tid] = x;
    }
}
