//--blockDim=256 --gridDim=16
// In-place 1-D Jacobi sweeps on global memory: a block's edge threads read cells that the
// neighbouring block writes. Barriers only order threads of one block.
#define LEN 4096

__global__ void jacobiInPlace(float *u, int sweeps)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    for (int s = 0; s < sweeps; ++s) {
        float l = i > 0 ? u[i - 1] : 0.0f;
        float r = i < LEN - 1 ? u[i + 1] : 0.0f;
        __syncthreads();
        u[i] = 0.5f * (l + r);
        __syncthreads();
    }
}
