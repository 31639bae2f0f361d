//--blockDim=128 --gridDim=16
// Complex multiply with C99 compound literals.
__global__ void cmul(const float2 *a, const float2 *b, float2 *c)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    float2 x = a[i], y = b[i];
    c[i] = (float2){x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x};
}
