__global__ void k(int *A, int n) {
    __shared__ int s[256];
    int t = threadIdx.x;
    for (int i = 0; i < n; i++) {
        if (A[i] == 0)
            continue;
        if (A[i] < 0) break;
        s[t] += A[i];
    }
    int j = 0;
    while (j < 8) {
        j++;
        if (j == n) {
            break;
        }
    }
    do {
        j--;
        if (j == 3) continue;
    } while (j > 0);
    A[t] = s[t] + j;
}
