// A 1-D kernel over a very large array: only threads whose global id exceeds 70 million write the
// running maximum, unguarded. Such ids exist only in grids of more than 65535 blocks of 1024
// threads — legal along x (up to 2^31 - 1 blocks) — so a verifier that bounds gridDim.x by 65535
// misses this write-write race between threads of one block (and of different blocks).
__global__ void tail_max(unsigned *best, const float *v, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i > 70000000u) {
        best[0] = i;
    }
}
