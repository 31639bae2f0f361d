// Structs the way C code declares them: typedef'd anonymous structs, nested structs flattened
// into words, brace initializers, a struct kernel parameter by value, a shared array of structs
// and a union of one-word members.
typedef struct {
    float x, y;
} Vec2;

struct Box {
    Vec2 lo;
    Vec2 hi;
};
typedef struct Box BoxT;

struct Params {
    int stride;
    float scale;
};

union Bits {
    float f;
    unsigned int u;
};

__global__ void boxes(const BoxT *boxes, float *area, struct Params p)
{
    __shared__ Vec2 corner[64];
    int i = blockIdx.x * 64 + threadIdx.x;
    BoxT b = boxes[i * p.stride];
    Vec2 origin = {0.0f, 0.0f};
    BoxT unit = {{1.0f}, {2.0f, 3.0f}};
    Vec2 lo = b.lo;
    corner[threadIdx.x] = b.hi;
    __syncthreads();
    union Bits bits;
    bits.f = (corner[63 - threadIdx.x].x - lo.x) * (b.hi.y - b.lo.y);
    bits.u = bits.u & 0x7fffffffu;
    area[i] = bits.f * p.scale + origin.x + unit.hi.x;
}
