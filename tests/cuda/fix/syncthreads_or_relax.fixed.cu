//--blockDim=256 --gridDim=64
// Bellman-Ford-style relaxation along a chain held in shared memory: the block iterates while
// any thread improved its distance (__syncthreads_or is the loop's barrier and its exit
// test, the same for every thread). Inside an iteration the neighbour's distance is read and
// then overwritten by the neighbour: a barrier between the two is missing.
__global__ void relax_chain(int *dist, const int *weight) {
    __shared__ int d[256];
    int t = threadIdx.x;
    int g = blockIdx.x * 256 + t;
    d[t] = dist[g];
    int changed = 1;
    while (__syncthreads_or(changed)) {
        int cand = t > 0 ? d[t - 1] + weight[g] : d[t];
        __syncthreads();
        changed = cand < d[t];
        if (changed)
            d[t] = cand;
    }
    dist[g] = d[t];
}
