// Structs with array members: the record's words flattened, an array member's elements
// row-major in declaration order (`ring[s].a[r][k]` is word s * 40 + r * 4 + k).
struct Stage {
    float a[4][4];
    float b[4][4];
    int filled[8];
};

template <typename T, int N>
struct alignas(sizeof(T) * N) Packet {
    T v[N];
};

struct Dims {
    int size[3];
    int stride[3];
};

__device__ void fill(Stage &st, const float *src, int t)
{
    st.a[t / 4][t % 4] = src[t];
    st.b[t % 4][t / 4] = src[t + 16];
    if (t < 8)
        st.filled[t] = 1;
}

__device__ Packet<float, 4> loadPacket(const float *p)
{
    return *reinterpret_cast<const Packet<float, 4> *>(p);
}

__global__ void stages(const float *src, float *out, Dims d)
{
    __shared__ Stage ring[2];
    const int t = threadIdx.x;
    fill(ring[t % 2], src, t);
    __syncthreads();
    const Stage &st = ring[1];
    const float *row = st.a[t % 4];
    Packet<float, 4> p = loadPacket(src + 4 * t);
    Packet<int, 2> q = {{t, 2 * t}};
    p.v[t % 4] += row[1] + st.b[2][t % 4] + q.v[1];
    out[t * d.stride[0] + d.size[t % 3]] = p.v[0];
}
