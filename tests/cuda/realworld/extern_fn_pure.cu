//--blockDim=256 --gridDim=16
// Activation implemented in another translation unit (declared only): called with values.
__device__ float activation(float x, float alpha);

__global__ void applyActivation(float *x, float alpha)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = activation(x[i], alpha);
}
