struct Vec2 { float x, y; };
struct Box { Vec2 lo, hi; int id; };
__global__ void k(float *out) {
    out[0] = 1;
    Vec2 p = {.x = 1.0f, .y = 2.0f};
    Box b = {.lo = {.x = 0.0f}, .hi.y = 3.0f, 7};
}
__global__ void k2(float *out) {
    Box b = {.lo = {.x = 0.0f}, .hi.y = out[threadIdx.x], 7};
    Vec2 q = {.y = 1.0f, .x = 2.0f};
    out[threadIdx.x] = b.hi.y + b.lo.x + (float)b.id + q.x;
}
