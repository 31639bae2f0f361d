// Addresses of a thread's scalar locals: a device function's pointer parameter bound to the
// variable (`*out`, `out[0]` are the variable), passed on to another function, and a pointer
// local that keeps pointing at its variable. `&s_count` of a shared scalar is an element.
// `&cur` of a struct local passed to a `Cursor *` parameter: `c->f`, `(*c).f` and whole copies
// `*c = v`, `Cursor w = *c` are its field locals.
struct Cursor {
    int pos;
    int end;
};

__device__ bool advance(Cursor *c, const int *items, int *out) {
    if (c->pos >= c->end) {
        return false;
    }
    *out = items[c->pos];
    (*c).pos += 1;
    return true;
}

__device__ int remaining(Cursor *c, Cursor fresh) {
    Cursor seen = *c;
    *c = fresh;
    return seen.end - seen.pos;
}
__device__ void accumulate(float *out, float v) { *out += v; }

__device__ void accumulate_twice(float *out, float v) {
    accumulate(out, v);
    out[0] = out[0] + v;
}

__device__ bool next_item(const int *items, int *cursor, int end, int *item) {
    if (*cursor >= end) {
        return false;
    }
    *item = items[*cursor];
    (*cursor)++;
    return true;
}

__global__ void addresses(float *out, const float *in, const int *items, int n) {
    __shared__ int s_count;
    int tid = threadIdx.x;
    if (tid == 0) {
        s_count = 0;
    }
    __syncthreads();
    float sum = 0.0f;
    accumulate(&sum, in[tid]);
    accumulate_twice(&sum, 1.0f);
    int best = 0;
    int cursor = tid * 4;
    int item;
    while (next_item(items, &cursor, tid * 4 + 4, &item)) {
        atomicAdd(&s_count, item);
    }
    Cursor cur;
    cur.pos = tid;
    cur.end = tid + 2;
    while (advance(&cur, items, &item)) {
        best += item;
    }
    Cursor again;
    again.pos = 0;
    again.end = 0;
    best += remaining(&cur, again);
    int *p = &best;
    *p = cursor;
    p[0] += 1;
    __syncthreads();
    out[blockIdx.x * blockDim.x + tid] = sum + best + s_count;
}
