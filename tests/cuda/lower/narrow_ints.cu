#include <cstdint>

// C's values of narrow integer types: a widening conversion masks an unsigned one and
// sign-extends a signed one; a subscript and a test against zero, which C does not convert,
// take the same value, as does a compound `/`, `%` or `>>`; plain `char` (signed or not by
// platform) keeps the word.
__global__ void narrow(const uint8_t *u8, const int8_t *i8, const short *i16, const char *c,
                       int *out) {
    __shared__ int tab[256];
    unsigned t = threadIdx.x;
    int a = u8[t];
    int b = i8[t];
    int d = i16[t];
    int e = c[t];
    out[t] = a + b + d + e;
    int8_t v = i8[t];
    out[t] = tab[v + 128];
    out[t] = tab[v];
    signed char w = (signed char)(t * 3);
    if (w) {
        out[t] = tab[(unsigned char)w];
    }
    unsigned char h = t + 200;
    h /= 2;
    out[t] = h;
}
