__global__ void k(int *A, int n) {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    A[threadIdx.x] = lane;
}
