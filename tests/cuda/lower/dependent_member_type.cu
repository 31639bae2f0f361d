template <typename T> struct vec4 { typedef float4 Type; };
template <typename T> struct vec4<T *> { typedef int4 Type; };

template <typename T>
__global__ void copy4(const typename vec4<T>::Type *in, typename vec4<T>::Type *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

template __global__ void copy4<float>(const float4 *, float4 *, int);
