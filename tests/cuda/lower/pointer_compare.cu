// Pointers into one array compared and subtracted: their offsets, in elements.
__global__ void k(float4 *out) {
    __shared__ float4 s[64];
    float4 *end = s + 64;
    for (float4 *p = s + threadIdx.x; p < end; p += blockDim.x)
        p->x = 0.0f;
    float4 *q = s + 2 * threadIdx.x;
    out[threadIdx.x].y = (float)(q - s);
}
