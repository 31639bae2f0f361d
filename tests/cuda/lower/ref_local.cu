// Reference locals alias the lvalue they are bound to; an element's index is evaluated once, at
// the declaration.
struct Acc { int n; float sum; };

__global__ void k(int *a, float4 *arr, Acc *acc, int m) {
    __shared__ int s[128];
    unsigned int i = threadIdx.x;
    int &r = s[i];
    r = a[i];
    i = i + 1;
    r += 3;
    int x = 0;
    int &y = x;
    y = r * 2;
    __syncthreads();
    const int &c = s[(i + 1) & 127];
    const float &f = a[i] + 1;
    float4 &v = arr[threadIdx.x];
    v.x = v.y + f;
    const float4 &w = arr[blockIdx.x];
    Acc &t = acc[threadIdx.x];
    t.n += c + x + m;
    t.sum = w.z;
    float4 *p = arr + 2;
    float4 &e = *(p + threadIdx.y);
    int &k = acc->n;
    e.w = (float)k;
    float4 copy = v;
    a[i] = (int)copy.w;
}
