//--blockDim=64 --gridDim=1
// Pointers moved and swapped by device functions taking pointers to them (`float **`).
__device__ void advance(float **p, int k) { *p += k; }

__device__ void flip(float **a, float **b)
{
    float *t = *a;
    *a = *b;
    *b = t;
}

__global__ void walk(float *out)
{
    __shared__ float s[128], u[128];
    float *p = s, *q = u;
    advance(&p, threadIdx.x * 2);
    p[0] = 1.0f;
    p[1] = 2.0f;
    flip(&p, &q);
    q[0] = 3.0f;
    __syncthreads();
    out[threadIdx.x] = s[(2 * threadIdx.x + 2) % 128] + p[threadIdx.x];
}
