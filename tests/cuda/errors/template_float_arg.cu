template <typename T>
__global__ void k(T *A) {
    A[threadIdx.x] = 1;
}
template __global__ void k<float4>(float4 *A);
