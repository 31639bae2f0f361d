//--blockDim=128 --gridDim=32
// A block reduction whose operator is chosen by a (uniform) enum parameter.
enum ReduceOp { OP_SUM, OP_MAX, OP_MIN };

__global__ void reduceBy(const float *in, float *out, enum ReduceOp op)
{
    __shared__ float s[128];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    for (unsigned k = 64; k > 0; k /= 2) {
        if (t < k) {
            float a = s[t], b = s[t + k];
            if (op == OP_SUM)
                s[t] = a + b;
            else if (op == OP_MAX)
                s[t] = a > b ? a : b;
            else
                s[t] = a < b ? a : b;
        }
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
