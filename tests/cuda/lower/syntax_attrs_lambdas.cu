// Syntax people use in kernels: attributes, launch bounds, inline hints, pragmas, the comma
// operator in for headers, compound literals and lambdas (inlined at their calls).
#define W 128

__device__ __forceinline__ int twice(int v) { return 2 * v; }
__device__ __noinline__ unsigned lane(unsigned t) { return t & 31u; }

__global__ void __launch_bounds__(W, 2) mixed(int *a, float2 *pts, int n)
{
    [[maybe_unused]] int unused = n;
    __attribute__((unused)) int spare = 0;
    __shared__ int buf[W];
    const int t = threadIdx.x;
    auto at = [&](int row, int col) -> int { return row * W + col; };
    auto store = [&](int i, int v) { buf[i] = v; };
    int base = blockIdx.x;
    auto shifted = [=](int k) { return (base + k) % W; };
    store(t, twice(t));
    __syncthreads();
    #pragma unroll 4
    for (int i = 0, j = W - 1; i < 4; i++, j--)
        a[at(blockIdx.x, t)] += buf[(t + i) % W] + j;
    [[likely]] if (t < n) {
        float2 p = (float2){1.0f, 2.0f};
        float2 q = float2{p.y, p.x};
        pts[blockIdx.x * W + t] = q;
    }
    a[n + shifted(lane(t))] = 0;
}
