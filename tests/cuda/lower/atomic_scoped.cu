// Scoped atomics: `_block` is atomic within the block only, `_system` for every thread.
__global__ void scoped(int *count, unsigned *flags, float *acc, int *slots) {
    __shared__ int local_count;
    if (threadIdx.x == 0)
        local_count = 0;
    __syncthreads();
    int mine = atomicAdd_block(&local_count, 1);
    atomicAdd_system(count, 1);
    atomicOr_block(&flags[blockIdx.x], 1u << (threadIdx.x % 32));
    atomicAdd_block(&acc[blockIdx.x], 1.0f);
    int old = atomicCAS_block(&slots[blockIdx.x], 0, mine);
    atomicExch_system(&slots[gridDim.x + blockIdx.x], old);
    atomicMax_block(&slots[0], mine);
    atomicInc_system((unsigned *)&count[1], 100u);
}
