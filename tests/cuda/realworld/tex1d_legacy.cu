//--blockDim=256 --gridDim=32
// Linear interpolation of a table bound to a legacy texture reference.
texture<float, 1, cudaReadModeElementType> tableTex;

__global__ void lerpTable(const float *pos, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float p = pos[i];
    int k = (int)p;
    float f = p - (float)k;
    float a = tex1Dfetch(tableTex, k);
    float b = tex1Dfetch(tableTex, k + 1);
    out[i] = a + f * (b - a);
}
