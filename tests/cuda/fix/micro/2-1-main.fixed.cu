//--blockDim=64 --gridDim=1
// 2-1-main: 2 races (on A and on B), 1 barrier, straight-line code: both arrays are filled, then
// each thread reads another thread's element of each; one barrier between the stores and the loads.
__global__ void micro_2_1_main(int *out, const int *in)
{
    __shared__ int A[64];
    __shared__ int B[64];
    int tid = threadIdx.x;
    int v = in[tid];
    A[tid] = v;
    B[tid] = v * 2;
    __syncthreads();
    int a = A[(tid + 1) % 64];
    int b = B[(tid + 63) % 64];
    out[tid] = a + b;
}
