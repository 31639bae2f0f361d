//--blockDim=128 --gridDim=64
// Gravity on a tile of particles, C99 style: each thread builds its particle with designated
// initializers, stages it in shared memory, and sums the pull of the whole tile. The barrier
// between staging and the interaction loop is missing.
#define TILE 128

typedef struct {
    float x, y;
} vec2;

typedef struct {
    vec2 pos;
    float mass;
    int alive;
} particle;

__global__ void pull(const float *px, const float *py, const float *m, float *ax, float *ay)
{
    __shared__ particle tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    particle me = {.pos = {.x = px[i], .y = py[i]}, .mass = m[i], .alive = 1};
    tile[threadIdx.x] = me;
    vec2 acc = {.x = 0.0f, .y = 0.0f};
    for (int j = 0; j < TILE; ++j) {
        particle other = tile[j];
        float dx = other.pos.x - me.pos.x;
        float dy = other.pos.y - me.pos.y;
        float inv = rsqrtf(dx * dx + dy * dy + 1e-3f);
        float s = other.alive ? other.mass * inv * inv * inv : 0.0f;
        acc.x += s * dx;
        acc.y += s * dy;
    }
    ax[i] = acc.x;
    ay[i] = acc.y;
}
