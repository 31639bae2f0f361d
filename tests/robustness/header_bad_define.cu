//--blockDim=128 --gridDim=4 -DT?ILE=128
__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }
