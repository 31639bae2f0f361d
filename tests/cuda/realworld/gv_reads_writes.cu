//--blockDim=256 --gridDim=16
// SAXPY through a device helper that states which buffers it touches.
__device__ void axpyAt(float a, const float *x, float *y, unsigned i)
{
    __reads_from(x);
    __writes_to(y);
    __no_write(x);
    y[i] = a * x[i] + y[i];
}

__global__ void saxpy(float a, const float *x, float *y)
{
    __no_read(x + 4096);
    axpyAt(a, x, y, blockIdx.x * blockDim.x + threadIdx.x);
}
