//--blockDim=[8,8] --gridDim=[16,16]
// Non-local-means denoising, block-shared weights: the threads of an 8x8 block first compute the
// similarity weights between the block centre's patch and the 7x7 patches around it (one offset
// per thread) into shared memory, then every pixel averages its own 7x7 window with those weights.
#define NLM_WINDOW_RADIUS 3
#define NLM_BLOCK_RADIUS 1
#define NLM_WINDOW_SIZE (2 * NLM_WINDOW_RADIUS + 1)
#define NLM_WINDOW_AREA (NLM_WINDOW_SIZE * NLM_WINDOW_SIZE)
#define INV_NLM_WINDOW_AREA (1.0f / (float)NLM_WINDOW_AREA)
#define NLM_WEIGHT_THRESHOLD 0.10f
#define NLM_LERP_THRESHOLD 0.10f
#define BLOCKDIM_X 8
#define BLOCKDIM_Y 8
#define IMAGE_W 128
#define IMAGE_H 128
#define IMAD(a, b, c) ((a) * (b) + (c))

__device__ inline float lerpf(float a, float b, float c)
{
    return a + (b - a) * c;
}

// Pixel (x, y) with the coordinates clamped to the image (clamp-to-edge addressing).
__device__ inline float fetchClamped(const float *img, int x, int y)
{
    x = min(max(x, 0), IMAGE_W - 1);
    y = min(max(y, 0), IMAGE_H - 1);
    return img[IMAD(y, IMAGE_W, x)];
}

__global__ void NLM2(float *dst, const float *src, float Noise, float lerpC)
{
    __shared__ float fWeights[BLOCKDIM_X * BLOCKDIM_Y];

    const int ix = IMAD(blockDim.x, blockIdx.x, threadIdx.x);
    const int iy = IMAD(blockDim.y, blockIdx.y, threadIdx.y);
    // Centre pixel of the block and this thread's window offset from it.
    const int cx = IMAD(blockDim.x, blockIdx.x, NLM_WINDOW_RADIUS);
    const int cy = IMAD(blockDim.y, blockIdx.y, NLM_WINDOW_RADIUS);
    const int ox = (int)threadIdx.x - NLM_WINDOW_RADIUS;
    const int oy = (int)threadIdx.y - NLM_WINDOW_RADIUS;

    // Only the threads with an offset inside the window compute a weight.
    if (threadIdx.x < NLM_WINDOW_SIZE && threadIdx.y < NLM_WINDOW_SIZE) {
        float dist = 0.0f;
        for (int n = -NLM_BLOCK_RADIUS; n <= NLM_BLOCK_RADIUS; n++)
            for (int m = -NLM_BLOCK_RADIUS; m <= NLM_BLOCK_RADIUS; m++) {
                float d = fetchClamped(src, cx + ox + m, cy + oy + n) - fetchClamped(src, cx + m, cy + n);
                dist += d * d;
            }
        const float geo = (float)(ox * ox + oy * oy);
        fWeights[IMAD(threadIdx.y, NLM_WINDOW_SIZE, threadIdx.x)] =
            __expf(-(dist * Noise + geo * INV_NLM_WINDOW_AREA));
    }

    __syncthreads();

    if (ix >= IMAGE_W || iy >= IMAGE_H) return;

    float sum = 0.0f;
    float sumWeights = 0.0f;
    float fCount = 0.0f;
    for (int i = -NLM_WINDOW_RADIUS; i <= NLM_WINDOW_RADIUS; i++)
        for (int j = -NLM_WINDOW_RADIUS; j <= NLM_WINDOW_RADIUS; j++) {
            const float w = fWeights[IMAD(i + NLM_WINDOW_RADIUS, NLM_WINDOW_SIZE, j + NLM_WINDOW_RADIUS)];
            sum += w * fetchClamped(src, ix + j, iy + i);
            sumWeights += w;
            fCount += (w > NLM_WEIGHT_THRESHOLD) ? INV_NLM_WINDOW_AREA : 0.0f;
        }

    const float noisy = fetchClamped(src, ix, iy);
    const float lerpQ = (fCount > NLM_LERP_THRESHOLD) ? lerpC : 1.0f - lerpC;
    dst[IMAD(iy, IMAGE_W, ix)] = lerpf(sum / sumWeights, noisy, lerpQ);
}
