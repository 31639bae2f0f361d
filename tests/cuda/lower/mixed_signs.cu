// An `int` converted to `unsigned` beside an unsigned number: `iuadd`/`iumul` (`uiadd`/`uimul`
// when the unsigned number comes first), `uadd` when both are unsigned numbers, `+` when the
// unsigned one is a launch id or a constant; `j += k` as `j + k`.
__global__ void mixed(float *y, unsigned n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i + n] = 1.0f;
    y[k * n + threadIdx.x] = 2.0f;
    y[n * k] = 2.5f;
    y[k + threadIdx.x + 1u] = 3.0f;
    y[threadIdx.x + n] = 4.0f;
    unsigned j = threadIdx.x * 2;
    j += k;
    y[j] = 5.0f;
}
