// Dynamic shared memory declared as bytes and written as ints: sk[1] is bytes 4..8, smem[4]
// the first of them. The byte view and the int view meet where one index per element would
// say they do not, so the cast is refused rather than modelled wrongly.
__global__ void pun(int *out)
{
    extern __shared__ char smem[];
    int *sk = (int *)smem;
    sk[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = smem[threadIdx.x];
}
int main()
{
    int *o;
    cudaMalloc(&o, 256 * sizeof(int));
    pun<<<1, 256, 256 * sizeof(int)>>>(o);
    return 0;
}
