//--blockDim=64 --gridDim=64
// Axis-aligned boxes grown by a margin; nested structs with brace initializers.
struct Vec2 { float x, y; };
struct Box { struct Vec2 lo, hi; };

__device__ struct Box grow(struct Box b, float m)
{
    struct Box r = {{b.lo.x - m, b.lo.y - m}, {b.hi.x + m, b.hi.y + m}};
    return r;
}

__global__ void growBoxes(struct Box *boxes, float margin)
{
    int i = blockIdx.x * 64 + threadIdx.x;
    struct Box b = boxes[i];
    boxes[i] = grow(b, margin);
}
