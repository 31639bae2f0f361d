__global__ void collatz_steps(const int *in, int *steps, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    int c = 0;
    while (x > 1 && c < 1000) {
        x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
        c++;
    }
    steps[i] = c;
}
