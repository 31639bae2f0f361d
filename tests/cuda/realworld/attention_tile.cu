//--blockDim=64 --gridDim=[16,8]
// One attention tile: 64 queries of one head against 64 keys (head dim 32).
// S = Q K^T / sqrt(d), row softmax, O = P V. Q, K, V, O are [heads][64][32].
#define SEQ 64
#define HD 32

__global__ void attentionTile(const float *Q, const float *K, const float *V, float *O)
{
    __shared__ float Ks[SEQ][HD + 1];
    __shared__ float Vs[SEQ][HD];
    int head = blockIdx.y * 16 + blockIdx.x;
    const float *q = Q + (head * SEQ + threadIdx.x) * HD;
    for (int d = 0; d < HD; ++d) {
        Ks[threadIdx.x][d] = K[(head * SEQ + threadIdx.x) * HD + d];
        Vs[threadIdx.x][d] = V[(head * SEQ + threadIdx.x) * HD + d];
    }
    __syncthreads();
    float scores[SEQ];
    float mx = -1e30f;
    for (int j = 0; j < SEQ; ++j) {
        float s = 0.0f;
        for (int d = 0; d < HD; ++d)
            s += q[d] * Ks[j][d];
        scores[j] = s * rsqrtf((float)HD);
        mx = fmaxf(mx, scores[j]);
    }
    float denom = 0.0f;
    for (int j = 0; j < SEQ; ++j) {
        scores[j] = __expf(scores[j] - mx);
        denom += scores[j];
    }
    for (int d = 0; d < HD; ++d) {
        float acc = 0.0f;
        for (int j = 0; j < SEQ; ++j)
            acc += scores[j] * Vs[j][d];
        O[(head * SEQ + threadIdx.x) * HD + d] = acc / denom;
    }
}
