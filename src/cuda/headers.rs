//! The CUDA and C++ stand-in headers shipped inside the binary, and the cache directory they
//! are written to so clang can read them. A machine without the CUDA toolkit then parses a file
//! as one with it, and every machine parses it the same way (the real system headers are never
//! read: clang runs with `-nostdinc`).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::ClangError;

/// Every stand-in header: its path below the include directory and its text. The path is what
/// a user's `#include` names (`cuda/barrier`, `cooperative_groups/reduce.h`).
pub const HEADERS: &[(&str, &str)] = &[
    ("ATen/AccumulateType.h", include_str!("include/ATen/AccumulateType.h")),
    ("ATen/cuda/CUDAContext.h", include_str!("include/ATen/cuda/CUDAContext.h")),
    ("__autosync_core.h", include_str!("include/__autosync_core.h")),
    ("__autosync_libc.h", include_str!("include/__autosync_libc.h")),
    ("__autosync_math.h", include_str!("include/__autosync_math.h")),
    ("__autosync_std.h", include_str!("include/__autosync_std.h")),
    ("algorithm", include_str!("include/algorithm")),
    ("array", include_str!("include/array")),
    ("assert.h", include_str!("include/assert.h")),
    ("builtin_types.h", include_str!("include/builtin_types.h")),
    ("c10/cuda/CUDAGuard.h", include_str!("include/c10/cuda/CUDAGuard.h")),
    ("cassert", include_str!("include/cassert")),
    ("cerrno", include_str!("include/cerrno")),
    ("cfloat", include_str!("include/cfloat")),
    ("chrono", include_str!("include/chrono")),
    ("cinttypes", include_str!("include/cinttypes")),
    ("climits", include_str!("include/climits")),
    ("cmath", include_str!("include/cmath")),
    ("cooperative_groups.h", include_str!("include/cooperative_groups.h")),
    ("cooperative_groups/memcpy_async.h", include_str!("include/cooperative_groups/memcpy_async.h")),
    ("cooperative_groups/reduce.h", include_str!("include/cooperative_groups/reduce.h")),
    ("cooperative_groups/scan.h", include_str!("include/cooperative_groups/scan.h")),
    ("cstdarg", include_str!("include/cstdarg")),
    ("cstdbool", include_str!("include/cstdbool")),
    ("cstddef", include_str!("include/cstddef")),
    ("cstdint", include_str!("include/cstdint")),
    ("cstdio", include_str!("include/cstdio")),
    ("cstdlib", include_str!("include/cstdlib")),
    ("cstring", include_str!("include/cstring")),
    ("ctime", include_str!("include/ctime")),
    ("cuda.h", include_str!("include/cuda.h")),
    ("cuda/barrier", include_str!("include/cuda/barrier")),
    ("cuda/pipeline", include_str!("include/cuda/pipeline")),
    ("cuda_bf16.h", include_str!("include/cuda_bf16.h")),
    ("cuda_fp16.h", include_str!("include/cuda_fp16.h")),
    ("cuda_fp8.h", include_str!("include/cuda_fp8.h")),
    ("cuda_pipeline.h", include_str!("include/cuda_pipeline.h")),
    ("cuda_pipeline_primitives.h", include_str!("include/cuda_pipeline_primitives.h")),
    ("cuda_runtime.h", include_str!("include/cuda_runtime.h")),
    ("cuda_runtime_api.h", include_str!("include/cuda_runtime_api.h")),
    ("curand.h", include_str!("include/curand.h")),
    ("curand_kernel.h", include_str!("include/curand_kernel.h")),
    ("device_functions.h", include_str!("include/device_functions.h")),
    ("device_launch_parameters.h", include_str!("include/device_launch_parameters.h")),
    ("errno.h", include_str!("include/errno.h")),
    ("float.h", include_str!("include/float.h")),
    ("fstream", include_str!("include/fstream")),
    ("functional", include_str!("include/functional")),
    ("helper_cuda.h", include_str!("include/helper_cuda.h")),
    ("helper_functions.h", include_str!("include/helper_functions.h")),
    ("helper_string.h", include_str!("include/helper_string.h")),
    ("helper_timer.h", include_str!("include/helper_timer.h")),
    ("initializer_list", include_str!("include/initializer_list")),
    ("inttypes.h", include_str!("include/inttypes.h")),
    ("iomanip", include_str!("include/iomanip")),
    ("iostream", include_str!("include/iostream")),
    ("istream", include_str!("include/istream")),
    ("limits", include_str!("include/limits")),
    ("limits.h", include_str!("include/limits.h")),
    ("math.h", include_str!("include/math.h")),
    ("math_constants.h", include_str!("include/math_constants.h")),
    ("memory", include_str!("include/memory")),
    ("mma.h", include_str!("include/mma.h")),
    ("numeric", include_str!("include/numeric")),
    ("ostream", include_str!("include/ostream")),
    ("random", include_str!("include/random")),
    ("sm_60_atomic_functions.h", include_str!("include/sm_60_atomic_functions.h")),
    ("sstream", include_str!("include/sstream")),
    ("stdarg.h", include_str!("include/stdarg.h")),
    ("stddef.h", include_str!("include/stddef.h")),
    ("stdexcept", include_str!("include/stdexcept")),
    ("stdint.h", include_str!("include/stdint.h")),
    ("stdio.h", include_str!("include/stdio.h")),
    ("stdlib.h", include_str!("include/stdlib.h")),
    ("string", include_str!("include/string")),
    ("string.h", include_str!("include/string.h")),
    ("strings.h", include_str!("include/strings.h")),
    ("sys/time.h", include_str!("include/sys/time.h")),
    ("time.h", include_str!("include/time.h")),
    ("torch/extension.h", include_str!("include/torch/extension.h")),
    ("torch/types.h", include_str!("include/torch/types.h")),
    ("type_traits", include_str!("include/type_traits")),
    ("unistd.h", include_str!("include/unistd.h")),
    ("utility", include_str!("include/utility")),
    ("vector", include_str!("include/vector")),
    ("vector_types.h", include_str!("include/vector_types.h")),
];

/// The header force-included before the user's file, as nvcc does with its runtime header.
pub const FORCE_INCLUDE: &str = "cuda_runtime.h";

/// Name of the file written last into a complete header directory: a directory without it is
/// a crashed or concurrent writer's and is not used.
const COMPLETE_MARKER: &str = ".autosync-complete";

/// FNV-1a over names and texts: the directory name changes whenever any header does, so a
/// cache written by an older binary is never read by a newer one.
fn headers_hash() -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, text) in HEADERS {
        for b in name.bytes().chain([0u8]).chain(text.bytes()).chain([0u8]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The default cache root: `$XDG_CACHE_HOME/autosync`, else `$HOME/.cache/autosync`, else the
/// system temporary directory.
pub fn default_cache_root() -> PathBuf {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return PathBuf::from(x).join("autosync");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|x| !x.is_empty()) {
        return PathBuf::from(h).join(".cache").join("autosync");
    }
    std::env::temp_dir().join("autosync")
}

/// Directories already written by this process, so each parse does not stat the cache again.
static WRITTEN: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());

/// Returns the absolute directory holding every header of [`HEADERS`], writing it below `root`
/// first if needed. Writing is atomic: the headers go into a fresh sibling directory that is
/// renamed into place, so concurrent processes never see a half-written directory.
pub fn ensure_headers(root: &Path) -> Result<PathBuf, ClangError> {
    if let Ok(done) = WRITTEN.lock() {
        if let Some((_, dir)) = done.iter().find(|(r, _)| r == root) {
            return Ok(dir.clone());
        }
    }
    let err = |message: String| ClangError::Headers { dir: root.to_path_buf(), message };
    std::fs::create_dir_all(root).map_err(|e| err(e.to_string()))?;
    let root_abs = std::fs::canonicalize(root).map_err(|e| err(e.to_string()))?;
    let dir = root_abs.join(format!("include-{:016x}", headers_hash()));
    if !dir.join(COMPLETE_MARKER).is_file() {
        let tmp = tempfile::Builder::new()
            .prefix(".include-tmp-")
            .tempdir_in(&root_abs)
            .map_err(|e| err(e.to_string()))?;
        for (name, text) in HEADERS {
            let path = tmp.path().join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| err(e.to_string()))?;
            }
            std::fs::write(&path, text).map_err(|e| err(e.to_string()))?;
        }
        std::fs::write(tmp.path().join(COMPLETE_MARKER), b"").map_err(|e| err(e.to_string()))?;
        let tmp_path = tmp.keep();
        if let Err(e) = std::fs::rename(&tmp_path, &dir) {
            // Another process won the race (the target exists and is not empty): use its copy.
            let _ = std::fs::remove_dir_all(&tmp_path);
            if !dir.join(COMPLETE_MARKER).is_file() {
                return Err(err(format!("cannot move headers into {}: {e}", dir.display())));
            }
        }
    }
    if let Ok(mut done) = WRITTEN.lock() {
        done.push((root.to_path_buf(), dir.clone()));
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_written_once_and_completely() {
        let root = tempfile::tempdir().unwrap();
        let dir = ensure_headers(root.path()).unwrap();
        for (name, text) in HEADERS {
            assert_eq!(&std::fs::read_to_string(dir.join(name)).unwrap(), text, "{name}");
        }
        assert!(dir.join(COMPLETE_MARKER).is_file());
        assert_eq!(ensure_headers(root.path()).unwrap(), dir);
        // Only the final directory remains: the temporary one was renamed, not copied.
        let entries: Vec<_> = std::fs::read_dir(root.path()).unwrap().collect();
        assert_eq!(entries.len(), 1);
    }

    #[test]
    fn the_issue_named_headers_are_shipped() {
        for name in [
            "cuda_runtime.h",
            "cuda_fp16.h",
            "cuda_bf16.h",
            "cuda_fp8.h",
            "cooperative_groups.h",
            "cooperative_groups/reduce.h",
            "mma.h",
            "cuda/barrier",
            "cuda/pipeline",
            "cuda_pipeline.h",
            "curand_kernel.h",
            "cstdio",
            "stdio.h",
            "cstdlib",
            "cmath",
            "math.h",
            "cassert",
            "vector",
            "algorithm",
            "iostream",
            "string",
            "cstdint",
            "stdint.h",
            "float.h",
            "limits",
            "chrono",
            "memory",
            "cuda.h",
            "helper_cuda.h",
            "helper_functions.h",
        ] {
            assert!(HEADERS.iter().any(|(n, _)| *n == name), "{name} missing");
        }
    }
}
