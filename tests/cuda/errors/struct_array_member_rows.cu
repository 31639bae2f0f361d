// The rows of a two-dimensional array member passed as a pointer to rows (`float (*)[8]`): only
// a row of the member, or its elements, are pointers the lowering keeps.
struct Grid {
    float cells[4][8];
};

__device__ float second(const float (*rows)[8], int c)
{
    return rows[1][c];
}

__global__ void rowsOf(float *out)
{
    __shared__ Grid g;
    out[threadIdx.x] = second(g.cells, threadIdx.x % 8);
}
