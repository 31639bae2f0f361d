//--blockDim=128 --gridDim=8
// Per-lane-class work with a barrier in one case of a thread-dependent switch.
enum Phase { LOAD = 0, SCALE = 1, SKIP = 2, KEEP = 3 };

__global__ void phases(float *x)
{
    int g = blockIdx.x * 128 + threadIdx.x;
    float v = x[g];
    switch (threadIdx.x % 4) {
    case LOAD:
        v += 1.0f;
        __syncthreads();
        break;
    case SCALE:
        v *= 2.0f;
        break;
    default:
        break;
    }
    x[g] = v;
}
