//--blockDim=64 --gridDim=32
// Flash-attention-style loop over key/value blocks with an online softmax (64 queries per
// block, 8 key blocks of 64, head dim 16). The barrier before the next K/V load is missing.
#define BQ 64
#define BK 64
#define NKV 512
#define HD 16

__global__ void flashForward(const float *Q, const float *K, const float *V, float *O)
{
    __shared__ float Ks[BK][HD];
    __shared__ float Vs[BK][HD];
    int qi = blockIdx.x * BQ + threadIdx.x;
    float q[HD], acc[HD];
    for (int d = 0; d < HD; ++d) {
        q[d] = Q[qi * HD + d];
        acc[d] = 0.0f;
    }
    float m = -1e30f, l = 0.0f;
    for (int kb = 0; kb < NKV; kb += BK) {
        for (int d = 0; d < HD; ++d) {
            Ks[threadIdx.x][d] = K[(kb + threadIdx.x) * HD + d];
            Vs[threadIdx.x][d] = V[(kb + threadIdx.x) * HD + d];
        }
        __syncthreads();
        for (int j = 0; j < BK; ++j) {
            float s = 0.0f;
            for (int d = 0; d < HD; ++d)
                s += q[d] * Ks[j][d];
            float mNew = fmaxf(m, s);
            float scale = __expf(m - mNew), p = __expf(s - mNew);
            l = l * scale + p;
            for (int d = 0; d < HD; ++d)
                acc[d] = acc[d] * scale + p * Vs[j][d];
            m = mNew;
        }
    }
    for (int d = 0; d < HD; ++d)
        O[qi * HD + d] = acc[d] / l;
}
