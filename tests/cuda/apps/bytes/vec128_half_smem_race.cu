// fp16 block rotation through shared memory with 128-bit loads and stores (benchmark style):
// every thread should move one 16-byte packet (8 halves) global -> shared, and after the barrier
// writes back the packet of the mirrored thread. Bug: the shared offset was written as
// `t * 4` ("a float4 holds four elements"), but a float4 holds eight halves.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define THREADS 128
#define PACK 8                       // halves per 16-byte packet
#define TILE (THREADS * PACK)        // halves per block
#define LDST128BITS(v) (reinterpret_cast<float4 *>(&(v))[0])

__global__ void reverse_packets_f16(half *x, half *y)
{
    __shared__ half tile[TILE];
    const int t = threadIdx.x;
    const int g = blockIdx.x * TILE + t * PACK;

    LDST128BITS(tile[t * 4]) = LDST128BITS(x[g]);
    __syncthreads();
    LDST128BITS(y[g]) = LDST128BITS(tile[(THREADS - 1 - t) * 4]);
}

int main()
{
    const int n = 1 << 22;
    half *dx, *dy;
    cudaMalloc(&dx, n * sizeof(half));
    cudaMalloc(&dy, n * sizeof(half));
    cudaMemset(dx, 0, n * sizeof(half));
    reverse_packets_f16<<<n / TILE, THREADS>>>(dx, dy);
    cudaDeviceSynchronize();
    half *hy = (half *)malloc(n * sizeof(half));
    cudaMemcpy(hy, dy, n * sizeof(half), cudaMemcpyDeviceToHost);
    printf("y[0] = %f\n", __half2float(hy[0]));
    free(hy);
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}
