template <class T> struct SharedMemory {
    __device__ inline operator T *() {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

__global__ void k(float *g, int w) {
    __shared__ float tile[16][17];
    float *sdata = SharedMemory<float>();
    unsigned int tx = threadIdx.x, ty = threadIdx.y;
    float *row = &tile[ty][0];
    row[tx] = g[ty * w + tx];
    volatile float *v = sdata;
    float *p = g + w;
    v[tx] = p[tx];
    p += 2;
    *p = tile[tx][ty];
    atomicAdd(p + 1, 1.0f);
}
