//--blockDim=64 --gridDim=1
// As struct_ref.cu without the barrier between the helpers.
struct Stage {
    float *in;
    float *out;
    int n;
};

__device__ void load(const Stage &st, float *tile, int t) { tile[t] = st.in[t]; }

__device__ void store(const Stage *st, const float *tile, int t)
{
    st->out[t] = tile[(t + 1) % st->n];
}

__global__ void shift(float *in, float *out)
{
    __shared__ float tile[64];
    Stage st;
    st.in = in;
    st.out = out;
    st.n = 64;
    load(st, tile, threadIdx.x);
    store(&st, tile, threadIdx.x);
}
