//! Helpers shared by the test modules: running the built binary, lowering CUDA (clang reads
//! files: text is written to a temporary file first), and showing places for the golden tests
//! of the CUDA front end (`cuda_lower`, `preprocess`).

#![allow(clippy::result_large_err)] // Diagnostic is the crate's error type, as in the library

use autosync::cuda::{lower_file, FrontEndOptions, LoweredFile};
use autosync::diag::{line_col, Diagnostic};
use autosync::kpl::{Kernel, Place};
use std::path::Path;

/// Lowers the CUDA file `path` with `options` (its `path` set to `path`).
pub fn lower_path(path: &Path, options: FrontEndOptions) -> Result<LoweredFile, Diagnostic> {
    let src = std::fs::read_to_string(path).expect("read the CUDA file");
    lower_file(&src, &FrontEndOptions { path: Some(path.to_path_buf()), ..options })
}

/// The kernels of the CUDA file `path`: an error at the first refused kernel, or when there is
/// none.
pub fn kernels_of_path(path: &Path, options: FrontEndOptions) -> Result<Vec<Kernel>, Diagnostic> {
    let file = lower_path(path, options)?;
    if let Some(d) = file.refused.into_iter().next() {
        return Err(d);
    }
    if file.kernels.is_empty() {
        return Err(Diagnostic::error(
            "no `__global__` kernel in this file",
            autosync::span::Span::new(0, 0),
        ));
    }
    Ok(file.kernels)
}

/// The kernels of the CUDA text `src` (as a file `t.cu` of its own), only `only` when given;
/// spans are offsets of `src`.
pub fn kernels_of_text(src: &str, only: Option<&str>) -> Result<Vec<Kernel>, Diagnostic> {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.cu");
    std::fs::write(&path, src).expect("write the CUDA text");
    kernels_of_path(&path, FrontEndOptions { only: only.map(str::to_string), ..FrontEndOptions::default() })
}

/// One line describing where a barrier after a label would go in `src`, with `line:col`
/// positions (the form the expected `// places:` sections of the golden files use).
pub fn show_place(p: &Place, src: &str) -> String {
    let lc = |o: usize| {
        let (l, c) = line_col(src, o);
        format!("{l}:{c}")
    };
    match p {
        Place::Line { offset, indent } => format!("line @{} indent {:?}", lc(*offset), indent),
        Place::Braced { body_start, body_end, indent, outer_indent } => format!(
            "braced {}..{} indent {:?} outer {:?}",
            lc(*body_start),
            lc(*body_end),
            indent,
            outer_indent
        ),
        Place::Split { start, end, before, after, indent, braces } => format!(
            "split {}..{} indent {:?}{}: {} | barrier | {}",
            lc(*start),
            lc(*end),
            indent,
            braces.as_ref().map(|b| format!(" braces {b:?}")).unwrap_or_default(),
            before.join(" "),
            after.join(" ")
        ),
        Place::Not(why) => format!("not ({why})"),
    }
}

/// Runs the built `autosync` in `dir` with `args`: exit code (-1 when killed by a signal),
/// stdout, stderr.
pub fn autosync_in<S: AsRef<std::ffi::OsStr>>(dir: &std::path::Path, args: &[S]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_autosync"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run autosync");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}
