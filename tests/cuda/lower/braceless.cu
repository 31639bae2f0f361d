__global__ void braceless(int *A) {
    int i = threadIdx.x;
    if (i > 0) A[i] = A[i - 1];
    for (int j = 0; j < 4; j++)
        A[j] = i;
    while (i < 8) i++;
    if (i) { A[i] = 1; } A[0] = 2;
    if (i)
        A[i] = 3;
    else
        A[i] = 4;
}
