// Scalar typedefs (also chained), enums and `enum class` constants, qualifiers everywhere.
typedef unsigned int uint32;
typedef uint32 index_t;
typedef float real;
using count_t = int;

enum Mode { COPY, SCALE = 4, SHIFT };
enum class Edge : unsigned { Clamp, Wrap = 8 };

#define TILE 128

__global__ void transform(const real *__restrict__ in, volatile real *out, const Mode mode, count_t n)
{
    __shared__ __align__(16) real buf[TILE];
    const index_t t = threadIdx.x;
    index_t g = blockIdx.x * TILE + t;
    Edge e = Edge::Wrap;
    buf[t] = in[g];
    __syncthreads();
    switch (mode) {
    case COPY:
        out[g] = buf[t];
        break;
    case SCALE:
        out[g] = buf[(t + SHIFT) % TILE] * 2.0f;
        break;
    default:
        out[g] = buf[(t + (uint32)e) % TILE];
    }
}
