//--blockDim=128 --gridDim=32
// 256-point complex FFT per block, radix-2 decimation in time in shared memory: bit-reversed
// load, then log2(256) butterfly stages (one butterfly per thread per stage, twiddles computed).
#define FFT_N 256
#define LOG2_FFT_N 8
#define FFT_THREADS (FFT_N / 2)
#define PI_F 3.14159265358979f

__device__ inline float2 cmul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__device__ inline float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }

__device__ inline float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }

__device__ inline unsigned int bitReverse(unsigned int i)
{
    return __brev(i) >> (32 - LOG2_FFT_N);
}

__global__ void fftRadix2(float2 *d_data)
{
    __shared__ float2 s_data[FFT_N];
    const unsigned int tid = threadIdx.x;

    d_data += blockIdx.x * FFT_N;
    s_data[bitReverse(tid)] = d_data[tid];
    s_data[bitReverse(tid + FFT_THREADS)] = d_data[tid + FFT_THREADS];

    for (unsigned int half = 1; half < FFT_N; half <<= 1) {
        __syncthreads();
        // Butterfly tid of this stage: k-th pair of group tid / half, pairs (i, i + half).
        const unsigned int k = tid & (half - 1);
        const unsigned int i = (tid - k) * 2 + k;
        const unsigned int j = i + half;
        float s, c;
        __sincosf(-PI_F * (float)k / (float)half, &s, &c);
        const float2 t = cmul(make_float2(c, s), s_data[j]);
        const float2 u = s_data[i];
        s_data[i] = cadd(u, t);
        s_data[j] = csub(u, t);
    }

    __syncthreads();
    d_data[tid] = s_data[tid];
    d_data[tid + FFT_THREADS] = s_data[tid + FFT_THREADS];
}
