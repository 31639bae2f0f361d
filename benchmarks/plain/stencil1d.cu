//--blockDim=256 --gridDim=64
// 1-D stencil of radius 3: out[g] = sum_{k=0..6} w[k] * in[g + k] for g = blockIdx.x*256 + tid,
// where `in` is the signal padded by 3 elements on each side (n + 6 elements). Each block stages
// its 256 elements plus 3-element halos on both sides (262 values) in shared memory.
__global__ void stencil1d(float *out, const float *in, const float *w)
{
    __shared__ float tile[262];
    int tid = threadIdx.x;
    int base = (int)blockIdx.x * 256;
    tile[tid + 3] = in[base + tid + 3];
    if (tid < 3) {
        tile[tid] = in[base + tid];
        tile[tid + 259] = in[base + tid + 259];
    }
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < 7; k++) {
        sum += w[k] * tile[tid + k];
    }
    out[base + tid] = sum;
}
