//--blockDim=256
#define BLOCK 256
__global__ void relu(float *v, int count) {
    const int gid = blockIdx.x * BLOCK + threadIdx.x;
    if (gid >= count) return;
    float t = v[gid];
    v[gid] = t > 0.0f ? t : 0.0f;
}
