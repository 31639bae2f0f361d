// Rank sort of one tile: each thread counts the keys smaller than its own and writes its key
// there. With two equal keys both threads get the same rank: the scatter is a real race, but
// whether it happens depends on the data, so the report says which values it needs.
#define TILE 128

__global__ void rankSortTile(const unsigned *keys, unsigned *out)
{
    __shared__ unsigned s_key[TILE];
    __shared__ unsigned s_out[TILE];
    unsigned t = threadIdx.x;
    s_key[t] = keys[blockIdx.x * TILE + t];
    __syncthreads();
    unsigned mine = s_key[t];
    unsigned rank = 0;
    for (unsigned j = 0; j < TILE; ++j)
        if (s_key[j] < mine)
            ++rank;
    s_out[rank] = mine;
    __syncthreads();
    out[blockIdx.x * TILE + t] = s_out[t];
}

int main()
{
    unsigned *keys, *out;
    cudaMalloc(&keys, 64 * TILE * sizeof(unsigned));
    cudaMalloc(&out, 64 * TILE * sizeof(unsigned));
    rankSortTile<<<64, TILE>>>(keys, out);
    cudaDeviceSynchronize();
    return 0;
}
