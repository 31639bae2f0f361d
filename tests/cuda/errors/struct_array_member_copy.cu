// A whole copy of a struct whose array members make it 2048 words: refused rather than
// lowered to thousands of reads and writes.
struct Tile {
    float a[32][32];
    float b[32][32];
};

__global__ void rotate(float *out)
{
    __shared__ Tile t[2];
    if (threadIdx.x == 0)
        t[0] = t[1];
    __syncthreads();
    out[threadIdx.x] = t[0].a[0][threadIdx.x % 32];
}
