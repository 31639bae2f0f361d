//! The files a run over `[PATHS]...` processes: a file given by name is taken as it is; a
//! directory contributes its `*.cu`, `*.cuh` and `*.kpl` files, recursively, in path order,
//! skipping what `.gitignore`/`.ignore` files exclude and hidden entries (like ripgrep).

use super::Failure;
use std::path::PathBuf;

/// Extensions a directory walk picks up.
pub const KERNEL_EXTENSIONS: [&str; 3] = ["cu", "cuh", "kpl"];

/// The files of `paths`, in the order given (a directory's files sorted by path), each once.
/// Whether any path was a directory is returned too (such a run prints a summary).
pub fn expand(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, bool), Failure> {
    let mut files = Vec::new();
    let mut any_dir = false;
    for p in paths {
        if !p.is_dir() {
            // A missing or unreadable file is that file's error when it is processed.
            files.push(p.clone());
            continue;
        }
        any_dir = true;
        let walk = ignore::WalkBuilder::new(p)
            // .gitignore counts outside a git checkout too (an unpacked tarball, a CI cache).
            .require_git(false)
            .sort_by_file_path(|a, b| a.cmp(b))
            .build();
        for entry in walk {
            let entry = entry.map_err(|e| Failure::Usage(format!("{}: {e}", p.display())))?;
            let path = entry.path();
            let is_kernel =
                path.extension().and_then(|e| e.to_str()).is_some_and(|e| KERNEL_EXTENSIONS.contains(&e));
            if is_kernel && entry.file_type().is_some_and(|t| t.is_file()) {
                files.push(path.to_path_buf());
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    Ok((files, any_dir))
}
