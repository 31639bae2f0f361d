__global__ void k(int *A, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int i = 0;
again:
    s[t] = A[i];
    i++;
    if (i < n)
        goto again;
    if (n > 100)
        goto done;
    A[t] = s[63 - t];
done:
    A[0] = i;
}
