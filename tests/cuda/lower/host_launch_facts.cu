// Launch facts from host code: what is taken and what is not.
__global__ void a(float *v, int n) { v[threadIdx.x] = n; }
__global__ void b(float *v, int n) { v[threadIdx.x + threadIdx.y] = n; }
__global__ void c(float *v, int n) { v[threadIdx.x] = n; }
__global__ void d(float *v, int n) { v[threadIdx.x] = n; }
__global__ void e(float *v, int n) { v[blockIdx.x] = n; }

static void run_c(float *v, int threads) { c<<<4, threads>>>(v, 7); }

int main(int argc, char **argv)
{
    float *v;
    int t = 64;                 // a non-const local, reassigned before the launch
    t = t * 2;
    a<<<8, t>>>(v, t + 1);      // blockDim.x = 128, n = 129
    dim3 blk;                   // (1, 1, 1), then field stores
    blk.x = 16;
    blk.y = argc;               // unknown
    b<<<1, blk>>>(v, 3);
    run_c(v, 32);               // through a helper: blockDim.x = 32 from both calls
    run_c(v, 32);
    int m = 256;
    if (argc > 2)
        m = 512;                // may or may not run: m unknown at the launch
    d<<<1, m>>>(v, m);
    e<<<argc, 1>>>(v, 5);       // the grid only at run time: gridDim.x = argc? no, unknown
    void (*f)(float *, int) = e; // another use of e: no facts for e at all
    return 0;
}
