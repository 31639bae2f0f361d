//--blockDim=[8,8] --gridDim=[16,16]
// Non-local-means style denoising, one 8x8 pixel block per thread block.
// Phase 1: the block's pixels plus a 3-pixel apron (14x14) are staged in shared memory (clamped
//          at the image border).
// Phase 2: thread (tx,ty) compares the 3x3 patch around the block centre with the 3x3 patch at
//          offset (tx-3, ty-3) and stores the similarity weight 1/(1 + d*noise) in a shared 8x8
//          table (only the 7x7 offsets -3..3 are used afterwards).
// Phase 3: every thread averages the 7x7 window around its own pixel with the block-shared
//          weights and blends the result with the noisy pixel (lerpC).
// The image size is fixed by the launch geometry: 16x16 blocks of 8x8 pixels.
#define WIDTH 128
#define HEIGHT 128
__global__ void imageDenoisingNLM(float *dst, const float *src, float noise, float lerpC)
{
    __shared__ float window[14][14];
    __shared__ float weights[8][8];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int bx = (int)blockIdx.x * 8;
    int by = (int)blockIdx.y * 8;
    for (int k = ty * 8 + tx; k < 196; k += 64) {
        int wy = k / 14;
        int wx = k % 14;
        int gx = min(max(bx + wx - 3, 0), WIDTH - 1);
        int gy = min(max(by + wy - 3, 0), HEIGHT - 1);
        window[wy][wx] = src[gy * WIDTH + gx];
    }
    __syncthreads();
    float dist = 0.0f;
    for (int n = -1; n <= 1; n++) {
        for (int m = -1; m <= 1; m++) {
            float a = window[6 + n][6 + m];
            float b = window[3 + ty + n][3 + tx + m];
            dist += (a - b) * (a - b);
        }
    }
    weights[ty][tx] = 1.0f / (1.0f + dist * noise);
    __syncthreads();
    float sum = 0.0f;
    float wsum = 0.0f;
    for (int i = 0; i < 7; i++) {
        for (int j = 0; j < 7; j++) {
            float w = weights[i][j];
            sum += w * window[ty + i][tx + j];
            wsum += w;
        }
    }
    float orig = window[ty + 3][tx + 3];
    float clean = sum / wsum;
    int x = bx + tx;
    int y = by + ty;
    if (x < WIDTH && y < HEIGHT) {
        dst[y * WIDTH + x] = orig + (clean - orig) * lerpC;
    }
}
