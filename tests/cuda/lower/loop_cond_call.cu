// Device functions called in loop conditions: the condition is evaluated before the loop and
// again at the end of every iteration (after `continue` too, never after `break`), each time
// with the inlined body's own locals.
__device__ bool in_bounds(int i, int n) { return i < n; }

__device__ int pop(int *queue, int *head, int limit, int *out) {
    int at = atomicAdd(head, 1);
    if (at >= limit) {
        return 0;
    }
    *out = queue[at];
    return 1;
}

__device__ bool done(const int *flags) {
    int f = flags[0];
    return f != 0;
}

__global__ void loops(int *A, int *queue, int *head, int *flags, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = tid; in_bounds(i, n); i += stride) {
        if (A[i] < 0) {
            continue;
        }
        A[i] = 2 * A[i];
    }
    int v;
    while (pop(queue, head, n, &v)) {
        if (v < 0) {
            break;
        }
        A[v] = 1;
    }
    do {
        A[tid] += 1;
    } while (!done(flags));
}
