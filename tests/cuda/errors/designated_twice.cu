struct Vec2 { float x, y; };
__global__ void k(float *out)
{
    Vec2 q = {.y = out[0], .y = 2.0f};
    out[threadIdx.x] = q.y;
}
