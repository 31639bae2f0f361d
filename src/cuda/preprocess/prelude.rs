//! The built-in prelude that stands for CUDA, C and C++ system headers.
//!
//! autosync never reads the real system headers (their declarations do not change what a kernel
//! does to memory, and their host-side C++ is beyond the front end). A system header — any
//! `#include <…>`, or an `#include "…"` of a known system or CUDA SDK header name that is not
//! found on the include path — resolves to this prelude: the object-like macros kernels use
//! (`INFINITY`, `FLT_MAX`, `INT_MAX`, `M_PI`, …), each defined only if the file has not
//! defined it already. Floating values are opaque to the analysis, so a constant only has to
//! be a consistent value (`INFINITY` is the literal `1e39f`, which rounds to +inf; `NAN` is `0.0f / 0.0f`);
//! integer limits are exact.

/// Headers whose quoted `#include "…"` falls back to the prelude when no file is found.
/// Extension-less names (`cmath`, `vector`) and the `thrust/`, `cub/`, `cuda/`,
/// `cooperative_groups/` families are system headers too.
const KNOWN: &[&str] = &[
    "cuda.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "device_atomic_functions.h",
    "sm_20_atomic_functions.h",
    "sm_32_intrinsics.h",
    "cuda_fp16.h",
    "cuda_bf16.h",
    "cuda_profiler_api.h",
    "cooperative_groups.h",
    "curand.h",
    "curand_kernel.h",
    "cublas_v2.h",
    "cufft.h",
    "math_constants.h",
    "math_functions.h",
    "vector_types.h",
    "vector_functions.h",
    "texture_fetch_functions.h",
    "helper_cuda.h",
    "helper_functions.h",
    "helper_string.h",
    "helper_timer.h",
    "helper_image.h",
    "math.h",
    "assert.h",
    "stdio.h",
    "stdlib.h",
    "stdint.h",
    "stddef.h",
    "stdbool.h",
    "string.h",
    "limits.h",
    "float.h",
    "time.h",
    "inttypes.h",
    "omp.h",
];

/// Whether a quoted include of `name` that is not on the include path is a system header.
pub fn is_system_header(name: &str) -> bool {
    let base = name.trim();
    KNOWN.contains(&base)
        || ["thrust/", "cub/", "cuda/", "cooperative_groups/", "sys/"].iter().any(|p| base.starts_with(p))
        || (!base.contains('.') && !base.contains('/') && !base.is_empty())
}

/// The prelude's macros: (name, replacement).
pub const MACROS: &[(&str, &str)] = &[
    ("INFINITY", "1e39f"),
    ("HUGE_VALF", "1e39f"),
    ("HUGE_VAL", "1e39f"),
    ("NAN", "(0.0f / 0.0f)"),
    ("CUDART_INF_F", "1e39f"),
    ("CUDART_NAN_F", "(0.0f / 0.0f)"),
    ("CUDART_PI_F", "3.141592654f"),
    ("M_PI", "3.14159265358979323846"),
    ("M_PI_2", "1.57079632679489661923"),
    ("M_PI_4", "0.78539816339744830962"),
    ("M_1_PI", "0.31830988618379067154"),
    ("M_2_PI", "0.63661977236758134308"),
    ("M_E", "2.7182818284590452354"),
    ("M_LN2", "0.69314718055994530942"),
    ("M_LN10", "2.30258509299404568402"),
    ("M_LOG2E", "1.4426950408889634074"),
    ("M_SQRT2", "1.41421356237309504880"),
    ("M_SQRT1_2", "0.70710678118654752440"),
    ("FLT_MAX", "3.402823466e+38f"),
    ("FLT_MIN", "1.175494351e-38f"),
    ("FLT_EPSILON", "1.192092896e-07f"),
    ("DBL_MAX", "3.402823466e+38f"),
    ("CHAR_BIT", "8"),
    ("SCHAR_MAX", "127"),
    ("SCHAR_MIN", "(-128)"),
    ("UCHAR_MAX", "255"),
    ("SHRT_MAX", "32767"),
    ("SHRT_MIN", "(-32768)"),
    ("USHRT_MAX", "65535"),
    ("INT_MAX", "2147483647"),
    ("INT_MIN", "(-2147483647 - 1)"),
    ("UINT_MAX", "4294967295u"),
    ("INT8_MAX", "127"),
    ("INT16_MAX", "32767"),
    ("INT32_MAX", "2147483647"),
    ("INT32_MIN", "(-2147483647 - 1)"),
    ("UINT8_MAX", "255"),
    ("UINT16_MAX", "65535"),
    ("UINT32_MAX", "4294967295u"),
    ("RAND_MAX", "2147483647"),
    ("EXIT_SUCCESS", "0"),
    ("EXIT_FAILURE", "1"),
    ("NULL", "0"),
    // `<curand_kernel.h>`'s constants; its state types and functions are modelled by the
    // lowering (`lower/curand.rs`), which knows them by name.
    ("CURAND_2POW32_INV", "2.3283064e-10f"),
    ("CURAND_2POW32_INV_DOUBLE", "2.3283064365386963e-10"),
    ("CURAND_2POW32_INV_2PI", "(2.3283064e-10f * 6.2831855f)"),
    ("CURAND_2PI", "6.2831853071795860"),
    ("CURAND_PI_DOUBLE", "3.1415926535897932"),
    ("CURAND_SQRT2", "(-1.4142135f)"),
    ("CURAND_SQRT2_DOUBLE", "(-1.4142135623730951)"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_header_names() {
        assert!(is_system_header("cuda_runtime.h"));
        assert!(is_system_header("cmath"));
        assert!(is_system_header("thrust/device_vector.h"));
        assert!(!is_system_header("my_helpers.h"));
        assert!(!is_system_header("kernels/common.cuh"));
    }
}
