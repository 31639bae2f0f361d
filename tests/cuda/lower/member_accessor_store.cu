// A member accessor returning a reference (`y[k] = v` with `T &operator[](int i)`, and
// `acc.at(k) += v`): the place its one `return` names, `this` the object.
struct Packed4 {
    float payload[4];
    __device__ float &operator[](int i) { return payload[i]; }
    __device__ float &at(int i) { return payload[i]; }
};

__global__ void scale4(const float4 *in, float4 *out, float s)
{
    float4 x = in[threadIdx.x];
    Packed4 y;
    y[0] = x.x * s;
    y[1] = x.y * s;
    y.at(2) = x.z;
    y.at(3) = x.w;
    y.at(2) *= s;
    y[3] *= s;
    out[threadIdx.x] = make_float4(y[0], y[1], y[2], y[3]);
}
