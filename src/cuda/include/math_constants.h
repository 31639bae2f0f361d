/* autosync stand-in for CUDA's math_constants.h. */
#ifndef __AUTOSYNC_MATH_CONSTANTS_H
#define __AUTOSYNC_MATH_CONSTANTS_H
#define CUDART_INF_F __builtin_inff()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_SQRT_2PI_F 2.506628275f
#define CUDART_INF __builtin_inf()
#endif
