//! Helpers shared by the test modules: running the built binary, and showing places for the
//! golden tests of the CUDA front end (`cuda_lower`, `preprocess`).

use autosync::diag::line_col;
use autosync::kpl::Place;

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
