// `p->f` is `(*p).f` = `p[0].f`: a field word of the vector/struct element `p` points at.
struct Node { int val; float w; };

__device__ void bump(Node *n, float4 *q) {
    n->val += 1;
    q->w = (float)n->val;
}

__global__ void k(float4 *v, Node *nodes, float *out) {
    __shared__ float4 s[64];
    unsigned int tid = threadIdx.x;
    float4 *q = &s[tid];
    q->x = 1.0f;
    (&s[tid])->y = v->z;
    Node *n = &nodes[tid];
    n->val += 2;
    bump(nodes + blockIdx.x, v + tid);
    __syncthreads();
    (*(q + 1)).z = out[tid];
    *q = *(v + tid);
    out[tid] = s[(tid + 1) & 63].x + n->w;
}
