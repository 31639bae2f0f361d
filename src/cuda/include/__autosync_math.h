/* autosync stand-in: the C math library as CUDA provides it on host and device. The integral
 * overloads keep `sqrt(n)` with an int n unambiguous, as in libstdc++. */
#ifndef __AUTOSYNC_MATH_H
#define __AUTOSYNC_MATH_H

template <class T> struct __autosync_int_to_double {};
template <> struct __autosync_int_to_double<int> { typedef double type; };
template <> struct __autosync_int_to_double<unsigned int> { typedef double type; };
template <> struct __autosync_int_to_double<long> { typedef double type; };
template <> struct __autosync_int_to_double<unsigned long> { typedef double type; };
template <> struct __autosync_int_to_double<long long> { typedef double type; };
template <> struct __autosync_int_to_double<unsigned long long> { typedef double type; };
template <> struct __autosync_int_to_double<short> { typedef double type; };
template <> struct __autosync_int_to_double<unsigned short> { typedef double type; };
template <> struct __autosync_int_to_double<char> { typedef double type; };
template <> struct __autosync_int_to_double<bool> { typedef double type; };

#define __AS_M1(F)                                                                            \
  extern "C" __host__ __device__ double F(double x);                                          \
  extern "C" __host__ __device__ float F##f(float x);                                         \
  __host__ __device__ float F(float x);                                                       \
  template <class T>                                                                          \
  __host__ __device__ typename __autosync_int_to_double<T>::type F(T x);
#define __AS_M2(F)                                                                            \
  extern "C" __host__ __device__ double F(double x, double y);                                \
  extern "C" __host__ __device__ float F##f(float x, float y);                                \
  __host__ __device__ float F(float x, float y);
__AS_M1(sqrt) __AS_M1(cbrt) __AS_M1(rsqrt) __AS_M1(exp) __AS_M1(exp2) __AS_M1(exp10)
__AS_M1(expm1) __AS_M1(log) __AS_M1(log2) __AS_M1(log10) __AS_M1(log1p) __AS_M1(sin)
__AS_M1(cos) __AS_M1(tan) __AS_M1(asin) __AS_M1(acos) __AS_M1(atan) __AS_M1(sinh)
__AS_M1(cosh) __AS_M1(tanh) __AS_M1(asinh) __AS_M1(acosh) __AS_M1(atanh) __AS_M1(fabs)
__AS_M1(floor) __AS_M1(ceil) __AS_M1(round) __AS_M1(trunc) __AS_M1(rint) __AS_M1(nearbyint)
__AS_M1(erf) __AS_M1(erfc) __AS_M1(erfinv) __AS_M1(lgamma) __AS_M1(tgamma) __AS_M1(sinpi)
__AS_M1(cospi) __AS_M1(rcbrt) __AS_M1(normcdf) __AS_M1(normcdfinv) __AS_M1(logb)
__AS_M2(pow) __AS_M2(fmax) __AS_M2(fmin) __AS_M2(fmod) __AS_M2(atan2) __AS_M2(hypot)
__AS_M2(copysign) __AS_M2(fdim) __AS_M2(remainder) __AS_M2(nextafter)
#undef __AS_M1
#undef __AS_M2
extern "C" __host__ __device__ double fma(double x, double y, double z);
extern "C" __host__ __device__ float fmaf(float x, float y, float z);
__host__ __device__ float fma(float x, float y, float z);
extern "C" __host__ __device__ void sincos(double x, double *s, double *c);
extern "C" __host__ __device__ void sincosf(float x, float *s, float *c);
extern "C" __host__ __device__ void sincospif(float x, float *s, float *c);
extern "C" __host__ __device__ double ldexp(double x, int e);
extern "C" __host__ __device__ float ldexpf(float x, int e);
extern "C" __host__ __device__ double frexp(double x, int *e);
extern "C" __host__ __device__ float frexpf(float x, int *e);
extern "C" __host__ __device__ double modf(double x, double *i);
extern "C" __host__ __device__ float modff(float x, float *i);
extern "C" __host__ __device__ long lround(double x);
extern "C" __host__ __device__ long lroundf(float x);
extern "C" __host__ __device__ long long llround(double x);
extern "C" __host__ __device__ long long llroundf(float x);
extern "C" __host__ __device__ long lrint(double x);
extern "C" __host__ __device__ long lrintf(float x);
extern "C" __host__ __device__ int abs(int x);
extern "C" __host__ __device__ long labs(long x);
extern "C" __host__ __device__ long long llabs(long long x);
__host__ __device__ long abs(long x);
__host__ __device__ long long abs(long long x);
__host__ __device__ float abs(float x);
__host__ __device__ double abs(double x);
extern "C" __host__ __device__ int isnan(double x);
extern "C" __host__ __device__ int isinf(double x);
extern "C" __host__ __device__ int isfinite(double x);
extern "C" __host__ __device__ int signbit(double x);
__host__ __device__ bool isnan(float x);
__host__ __device__ bool isinf(float x);
__host__ __device__ bool isfinite(float x);
extern "C" __host__ __device__ int min(int a, int b);
extern "C" __host__ __device__ int max(int a, int b);
__host__ __device__ unsigned int min(unsigned int a, unsigned int b);
__host__ __device__ unsigned int max(unsigned int a, unsigned int b);
__host__ __device__ long long min(long long a, long long b);
__host__ __device__ long long max(long long a, long long b);
__host__ __device__ unsigned long long min(unsigned long long a, unsigned long long b);
__host__ __device__ unsigned long long max(unsigned long long a, unsigned long long b);
__host__ __device__ float min(float a, float b);
__host__ __device__ float max(float a, float b);
__host__ __device__ double min(double a, double b);
__host__ __device__ double max(double a, double b);
/* The mixed-signedness and mixed-precision overloads CUDA's math_functions.hpp declares. */
__host__ __device__ unsigned int min(int a, unsigned int b);
__host__ __device__ unsigned int min(unsigned int a, int b);
__host__ __device__ unsigned int max(int a, unsigned int b);
__host__ __device__ unsigned int max(unsigned int a, int b);
__host__ __device__ unsigned long long min(long long a, unsigned long long b);
__host__ __device__ unsigned long long min(unsigned long long a, long long b);
__host__ __device__ unsigned long long max(long long a, unsigned long long b);
__host__ __device__ unsigned long long max(unsigned long long a, long long b);
__host__ __device__ double min(float a, double b);
__host__ __device__ double min(double a, float b);
__host__ __device__ double max(float a, double b);
__host__ __device__ double max(double a, float b);
extern "C" __host__ __device__ unsigned int umin(unsigned int a, unsigned int b);
extern "C" __host__ __device__ unsigned int umax(unsigned int a, unsigned int b);

#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#define M_PIf 3.14159265358979323846f

#define FLT_MAX 3.40282347e+38F
#define FLT_MIN 1.17549435e-38F
#define FLT_EPSILON 1.19209290e-7F
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define DBL_MAX 1.7976931348623157e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#define DBL_DIG 15

#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MIN (-9223372036854775807LL - 1)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL

#endif
