//--blockDim=128 --gridDim=16
// Key/value pairs staged in shared memory and read back swapped with the neighbour.
typedef struct {
    int key;
    float val;
} Pair;

__global__ void swapNeighbours(Pair *p)
{
    __shared__ Pair s[128];
    int t = threadIdx.x;
    int g = blockIdx.x * 128 + t;
    s[t] = p[g];
    Pair other = s[t ^ 1];
    p[g] = other;
}
