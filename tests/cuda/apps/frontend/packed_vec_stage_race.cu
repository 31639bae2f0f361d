// SDK-style staging of packed rows through shared memory: a trait class picks the vector type
// each thread moves (four floats, or two ints), and each block reverses one row of vectors.
// Bug: no barrier between the stores to the tile and the reversed loads.
#include <cuda_runtime.h>

template <typename T> struct Packed;
template <> struct Packed<float> { typedef float4 Vec; };
template <> struct Packed<int> { typedef int2 Vec; };

template <typename T, int TILE>
__global__ void reverseRows(const typename Packed<T>::Vec *in, typename Packed<T>::Vec *out, int rows)
{
    __shared__ typename Packed<T>::Vec tile[TILE];
    int t = threadIdx.x;
    int row = blockIdx.x;
    if (row < rows)
        tile[t] = in[row * TILE + t];
    typename Packed<T>::Vec v = tile[TILE - 1 - t];
    if (row < rows)
        out[row * TILE + t] = v;
}

int main()
{
    const int rows = 512;
    float4 *f_in, *f_out;
    int2 *i_in, *i_out;
    cudaMalloc(&f_in, rows * 128 * sizeof(float4));
    cudaMalloc(&f_out, rows * 128 * sizeof(float4));
    cudaMalloc(&i_in, rows * 128 * sizeof(int2));
    cudaMalloc(&i_out, rows * 128 * sizeof(int2));
    reverseRows<float, 128><<<rows, 128>>>(f_in, f_out, rows);
    reverseRows<int, 128><<<rows, 128>>>(i_in, i_out, rows);
    cudaDeviceSynchronize();
    return 0;
}
