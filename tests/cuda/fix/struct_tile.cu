//--blockDim=128 --gridDim=4
// Particles staged in a shared array of structs; each thread then reads its neighbour's.
typedef struct {
    float x, y;
    int cell;
} Particle;

__global__ void neighbours(const Particle *ps, float *dist)
{
    __shared__ Particle tile[128];
    int t = threadIdx.x;
    Particle p = ps[blockIdx.x * 128 + t];
    tile[t] = p;
    Particle q = tile[(t + 1) % 128];
    dist[blockIdx.x * 128 + t] = (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y);
}
