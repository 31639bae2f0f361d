//--blockDim=128 --gridDim=8
// All-pairs gravity, one body per thread; positions are staged a tile at a time
// (textbook N-body tiling). 1024 bodies.
#define NBODY 1024
#define TILE 128

typedef struct {
    float x, y, z, m;
} Body;

typedef struct {
    float ax, ay, az;
} Accel;

__global__ void gravity(const Body *bodies, Accel *acc, float soft2)
{
    __shared__ Body tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    Body me = bodies[i];
    Accel a = {0.0f, 0.0f, 0.0f};
    for (int base = 0; base < NBODY; base += TILE) {
        tile[threadIdx.x] = bodies[base + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < TILE; ++j) {
            float dx = tile[j].x - me.x;
            float dy = tile[j].y - me.y;
            float dz = tile[j].z - me.z;
            float d2 = dx * dx + dy * dy + dz * dz + soft2;
            float inv = rsqrtf(d2);
            float s = tile[j].m * inv * inv * inv;
            a.ax += dx * s;
            a.ay += dy * s;
            a.az += dz * s;
        }
        __syncthreads();
    }
    acc[i] = a;
}
