//--blockDim=128 --gridDim=64
// Block-wide top-2 search: every thread keeps its two best candidates in a small array of
// structs in registers, publishes them to shared memory, and thread 0 merges the block's list.
#define THREADS 128

struct Cand {
    float score;
    int index;
};

__global__ void top2(const float *scores, int n, Cand *blockBest)
{
    __shared__ Cand pool[2 * THREADS];
    Cand mine[2] = {{-1e30f, -1}, {-1e30f, -1}};
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += THREADS * gridDim.x) {
        float s = scores[i];
        if (s > mine[0].score) {
            mine[1] = mine[0];
            mine[0].score = s;
            mine[0].index = i;
        } else if (s > mine[1].score) {
            mine[1] = Cand{s, i};
        }
    }
    pool[2 * threadIdx.x] = mine[0];
    pool[2 * threadIdx.x + 1] = mine[1];
    __syncthreads();
    if (threadIdx.x == 0) {
        Cand a = pool[0], b = pool[1];
        for (int j = 2; j < 2 * THREADS; ++j) {
            Cand c = pool[j];
            if (c.score > a.score) {
                b = a;
                a = c;
            } else if (c.score > b.score) {
                b = c;
            }
        }
        blockBest[2 * blockIdx.x] = a;
        blockBest[2 * blockIdx.x + 1] = b;
    }
}
