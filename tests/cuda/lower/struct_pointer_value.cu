// A struct holding a pointer as a value: default-constructed then assigned (the member's array is
// fixed there), returned from a device function, copied, passed by value and advanced.
struct View {
    int stride;
    float *data;
};

__device__ View sub(View v, int r) {
    View s;
    s.stride = v.stride;
    s.data = &v.data[r * v.stride];
    return s;
}

__device__ float get(const View v, int c) { return v.data[c]; }

__global__ void k(View in, float *out) {
    View row = sub(in, blockIdx.x);
    View copy = row;
    copy.data += 1;
    View next = threadIdx.x > 0 ? copy : row;
    out[threadIdx.x] = get(next, threadIdx.x) + get(row, 0);
}

// `?:` of two calls returning structs: each branch's value in the same temporaries, the pointer
// member's array fixed by the first.
__global__ void pick(View in, float *out) {
    View v = out[0] > 0.0f ? sub(in, 1) : sub(in, 2);
    out[threadIdx.x + 1] = v.data[threadIdx.x];
}
