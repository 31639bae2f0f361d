//--blockDim=256 --gridDim=32
// Affine transform of a signal; the parameters travel in a struct passed by value.
struct Affine {
    float scale;
    float shift;
    int n;
};

__global__ void affine(struct Affine p, const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n)
        out[i] = p.scale * in[i] + p.shift;
}
