//--blockDim=128 --gridDim=16
// Rotates 2-D points; sincosf writes through pointers to locals.
__global__ void rotate(float2 *p, const float *angle)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    float s, c;
    sincosf(angle[i], &s, &c);
    float2 q = p[i];
    p[i] = make_float2(c * q.x - s * q.y, s * q.x + c * q.y);
}
