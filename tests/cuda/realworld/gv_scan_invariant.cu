//pass
//--blockDim=256 --gridDim=1
// Inclusive Hillis-Steele scan with two ping-pong buffers.
#define N 256

__global__ void inclusiveScan(int *data)
{
    __shared__ int buf[2][N];
    unsigned t = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout][t] = data[t];
    __syncthreads();
    for (unsigned offset = 1;
         __invariant(__is_pow2(offset)), __invariant(pin == 1 - pout), offset < N;
         offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (t >= offset)
            buf[pout][t] = buf[pin][t] + buf[pin][t - offset];
        else
            buf[pout][t] = buf[pin][t];
        __syncthreads();
    }
    data[t] = buf[pout][t];
}
