//! Finding the benchmark kernels of a set of directories.

use std::path::{Path, PathBuf};

/// A benchmark file and the suite (directory name) it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchFile {
    pub suite: String,
    pub path: PathBuf,
}

/// The directories `autosync bench` runs without arguments: `benchmarks/micro`,
/// `benchmarks/plain`, `benchmarks/sdk`, `benchmarks/sdk-annotated` (the SDK rewrites with
/// GPUVerify `__requires` preconditions), `benchmarks/warp` (warp-synchronous kernels,
/// synthesized with `__syncwarp()`) and `benchmarks/ml` (current ML kernels: softmax, norms,
/// attention, GEMMs with `cp.async` and tensor cores), those of them that exist under `root`.
pub fn default_dirs(root: &Path) -> Vec<PathBuf> {
    ["micro", "plain", "sdk", "sdk-annotated", "warp", "ml"]
        .iter()
        .map(|d| root.join("benchmarks").join(d))
        .filter(|d| d.is_dir())
        .collect()
}

/// The benchmark files of `dirs`: every `.cu` file, and every `.kpl` file without a `.cu` twin
/// (same stem), of each directory (not recursive). Directories keep their order; files within
/// one are sorted by name, so the result does not depend on the file system.
///
/// Errors: a directory that cannot be read (the message names it).
pub fn discover(dirs: &[PathBuf]) -> Result<Vec<BenchFile>, String> {
    let mut out = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let mut paths: Vec<PathBuf> =
            entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
        paths.sort();
        let ext = |p: &Path| p.extension().and_then(|e| e.to_str()).map(str::to_string);
        let suite = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| dir.display().to_string());
        for p in &paths {
            let keep = match ext(p).as_deref() {
                Some("cu") => true,
                // A KPL translation of a CUDA kernel would be the same benchmark twice.
                Some("kpl") => !p.with_extension("cu").is_file(),
                _ => false,
            };
            if keep {
                out.push(BenchFile { suite: suite.clone(), path: p.clone() });
            }
        }
    }
    Ok(out)
}
