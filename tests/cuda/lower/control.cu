__global__ void control(int *A, float *F, int n) {
    int t = threadIdx.x;
    if (t < 3) t = A[t]; else { t = 1; }
    if (A[t] > 0) {
        A[t] = 0;
    }
    #pragma unroll
    for (int k = 0; k < n; k += 1) A[k] = 0;
    for (int k = t; A[k] != 0; k++) {
        __syncthreads();
    }
    while (F[t] > 0.5f) { t = min(t, 3); }
    do {
        t--;
    } while (A[t] > 0);
    if (t)
        __syncthreads();
    else if (n > 2) {
        t = max(t, n);
    }
    {
        int k = 2;
        t = k;
    }
    int k = 7;
    return;
}
