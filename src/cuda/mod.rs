//! The CUDA front end, on clang: runs clang on a `.cu` file, builds a typed, resolved
//! [`Model`] of it (kernels, device and host functions, template instances, launches, and typed
//! statement/expression trees) and lowers its kernels to KPL ([`lower_file`]).
//!
//! - `invoke`: finding clang (≥ 14), the command line, the time and size limits, the
//!   precompiled runtime header, and the loop that gives a header found nowhere an empty
//!   stand-in (each one reported as a [`Note`]).
//! - `headers`: the CUDA/C++ stand-in headers embedded in the binary and written to a cache
//!   directory; clang runs with `-nostdinc`, so no machine's system headers are read.
//! - `ast`: the serde structs of the JSON subset read, with clang's location elision undone.
//! - `model`: the resolved model.
//! - `launch`: launch facts from the host code's typed AST (shared rules: `crate::launch_facts`).
//! - `lower` (+ `lower/`): the model's kernels to KPL, with a barrier place per label
//!   (`text`); [`FrontEndOptions`] in, [`LoweredFile`] out.

mod annotations;
pub mod ast;
pub mod headers;
pub mod invoke;
pub(crate) mod launch;
pub mod lower;
pub mod model;
mod text;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use annotations::IGNORED_ANNOTATIONS;
pub use invoke::{find_clang, CLANG_ENV, MIN_CLANG_MAJOR};
pub use lower::lower_file;
pub use model::{
    ExecSpace, Function, Launch, LaunchKind, Model, Node, NodeKind, Param, Pos, SrcRange, SrcText,
    TemplateArg, TemplateParam,
};

/// What the command line tells the front end beyond the source text.
#[derive(Clone, Debug, Default)]
pub struct FrontEndOptions {
    /// The file being lowered (clang reads it; `#include "…"` resolves from its directory).
    pub path: Option<PathBuf>,
    /// `-I DIR`, searched in order after the file's own directory.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`, in command-line order (`None`: defined as `1`).
    pub defines: Vec<(String, Option<String>)>,
    /// `--template-arg NAME=VALUE`: template parameter values for template kernels the file
    /// does not instantiate.
    pub template_args: Vec<(String, String)>,
    /// `--kernel NAME`: lower only this kernel.
    pub only: Option<String>,
    /// `--assume EXPR` (repeatable): assumptions with the meaning of `__requires(EXPR)` in every
    /// kernel lowered, read by clang as C++ expressions over the kernel's parameters.
    pub assumptions: Vec<String>,
    /// `--no-launch-facts`: take nothing from the file's host code (launch geometry, argument
    /// values).
    pub no_launch_facts: bool,
    /// The command line's `--block-dim`/`--grid-dim` (they override the launches and the
    /// header; reports say so).
    pub command_line: crate::kpl::Geometry,
}

/// A lowered file: its kernels and what the front end has to tell the user.
#[derive(Clone, Debug)]
pub struct LoweredFile {
    /// The kernels, in source order (template instances in clang's order), with spans into
    /// the file's text, places and default label names.
    pub kernels: Vec<crate::kpl::Kernel>,
    /// Things read but not modelled or not honoured (ignored header flags, calls modelled
    /// without a body, clang's errors outside the kernels, …); none makes a verdict unsound.
    pub warnings: Vec<crate::diag::Diagnostic>,
    /// One error per kernel the front end refuses (not in `kernels`), in source order: its
    /// first unsupported construct, the others never modelled as secondary locations.
    pub refused: Vec<crate::diag::Diagnostic>,
}

/// A clang executable whose version was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClangExe {
    /// The executable.
    pub path: PathBuf,
    /// `(major, minor, patch)`; `major >= MIN_CLANG_MAJOR`.
    pub version: (u32, u32, u32),
}

/// The user's flags and the limits of one parse.
#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// `-I` directories, searched before the stand-in headers.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions: `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Further clang arguments, passed after the built-in ones (so they may override them).
    pub extra_args: Vec<String>,
    /// clang is killed after this long and the parse fails with [`ClangError::Timeout`].
    pub timeout: Duration,
    /// The most headers replaced by empty stand-ins before the parse fails.
    pub max_missing_headers: usize,
    /// Where the stand-in headers are written (default: [`headers::default_cache_root`]).
    pub cache_root: Option<PathBuf>,
    /// C++ read after the file, as if written at its end (explicit instances of its templates):
    /// clang then parses a wrapper that includes the file and adds this text, so every place
    /// in the file keeps its name, line and column.
    pub appendix: Option<String>,
    /// C++ read after [`ParseOptions::appendix`], from a header of its own whose declarations
    /// are part of the model (the `--assume` expressions, as device functions).
    pub appendix_decls: Option<String>,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            include_dirs: Vec::new(),
            defines: Vec::new(),
            extra_args: Vec::new(),
            timeout: Duration::from_secs(60),
            max_missing_headers: 32,
            cache_root: None,
            appendix: None,
            appendix_decls: None,
        }
    }
}

/// How serious a clang diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// `fatal error:` (clang stopped).
    Fatal,
    /// `error:`.
    Error,
    /// `warning:`.
    Warning,
    /// `note:` (belongs to the diagnostic before it).
    Note,
}

/// One diagnostic clang printed, located where clang located it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClangDiagnostic {
    /// Its severity.
    pub severity: Severity,
    /// The file as clang names it; `None` for driver messages without a place.
    pub file: Option<String>,
    /// 1-based line (0 without a place).
    pub line: u32,
    /// 1-based column (0 without a place).
    pub col: u32,
    /// The message, without the `file:line:col: severity:` prefix.
    pub message: String,
}

/// Something the caller should tell the user that is not an error of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The sentence.
    pub message: String,
    /// The header it is about, as the `#include` spelled it.
    pub header: Option<String>,
}

/// How one parse went, for performance reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParseStats {
    /// clang runs (one, plus one per missing header).
    pub clang_runs: usize,
    /// Wall time of all clang runs.
    pub clang_time: Duration,
    /// Bytes of JSON in the last run.
    pub json_bytes: usize,
    /// Wall time of deserializing and building the model.
    pub model_time: Duration,
    /// Top-level declarations skipped as not the user's.
    pub skipped_decls: usize,
}

/// A parsed file.
#[derive(Clone, Debug)]
pub struct ParsedFile {
    /// The model.
    pub model: Model,
    /// Notes (headers replaced by empty stand-ins), in the order they arose.
    pub notes: Vec<Note>,
    /// Every diagnostic clang printed on the last run.
    pub diagnostics: Vec<ClangDiagnostic>,
    /// clang's name of the file that read [`ParseOptions::appendix`] (deleted by now): its
    /// declarations are not in the model, its diagnostics are the appendix's.
    pub appendix_file: Option<String>,
    /// Measurements.
    pub stats: ParseStats,
}

/// Why a file could not be parsed at all. Errors *in* the file are not these: they are
/// [`ParsedFile::diagnostics`] and [`Function::errors`].
#[derive(Debug, thiserror::Error)]
pub enum ClangError {
    /// No clang executable was found.
    #[error(
        "clang not found ({searched}); install it (`apt-get install clang`, version {MIN_CLANG_MAJOR} or newer) or name it with the environment variable `AUTOSYNC_CLANG=PATH`"
    )]
    NotFound {
        /// What was looked at.
        searched: String,
    },
    /// clang exists but is older than [`MIN_CLANG_MAJOR`].
    #[error("{}: clang {version} is too old; version {MIN_CLANG_MAJOR} or newer is needed (`apt-get install clang`, or `AUTOSYNC_CLANG=PATH`)", path.display())]
    TooOld {
        /// The executable.
        path: PathBuf,
        /// Its version.
        version: String,
    },
    /// The executable could not be run or did not identify itself.
    #[error("{}: cannot use this clang: {message}", path.display())]
    Unusable {
        /// The executable.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The input file cannot be read.
    #[error("{}: cannot read: {message}", file.display())]
    Unreadable {
        /// The file.
        file: PathBuf,
        /// Why.
        message: String,
    },
    /// clang ran past the time limit and was killed.
    #[error("{}: clang did not finish within {seconds} s", file.display())]
    Timeout {
        /// The file.
        file: PathBuf,
        /// The limit.
        seconds: f64,
    },
    /// clang's AST of the file is past [`crate::limits::MAX_AST_BYTES`] (deep nesting makes
    /// it grow quadratically); clang was killed.
    #[error("{}: clang's AST of this file is larger than {} MiB", file.display(), crate::limits::MAX_AST_BYTES >> 20)]
    TooLarge {
        /// The file.
        file: PathBuf,
    },
    /// clang crashed or stopped without printing the AST.
    #[error("{}: clang failed ({status}): {message}", file.display())]
    Crashed {
        /// The file.
        file: PathBuf,
        /// The exit status in words.
        status: String,
        /// The end of clang's stderr.
        message: String,
    },
    /// clang's output is not the JSON this module reads.
    #[error("{}: cannot read clang's AST dump: {message}", file.display())]
    Json {
        /// The file.
        file: PathBuf,
        /// The deserializer's message.
        message: String,
    },
    /// A missing header could not be stood in for.
    #[error("{}: header `{header}` not found and cannot be replaced: {message}", file.display())]
    MissingHeader {
        /// The file.
        file: PathBuf,
        /// The header as included.
        header: String,
        /// Why.
        message: String,
    },
    /// The stand-in headers could not be written.
    #[error("{}: cannot write the stand-in headers: {message}", dir.display())]
    Headers {
        /// The cache root.
        dir: PathBuf,
        /// Why.
        message: String,
    },
}

impl ClangError {
    /// Whether the file nests deeper than autosync reads: past serde_json's depth limit (128
    /// levels of the JSON AST), or a dump past [`crate::limits::MAX_AST_BYTES`] (clang's
    /// indentation makes a deep dump grow quadratically).
    pub fn is_nesting(&self) -> bool {
        match self {
            ClangError::Json { message, .. } => message.contains("recursion limit"),
            ClangError::TooLarge { .. } => true,
            _ => false,
        }
    }
}

/// Parses `path` with clang and builds its model. Errors in the file do not fail the parse:
/// they are in [`ParsedFile::diagnostics`], and each function whose declaration contains one
/// lists it in [`Function::errors`]; the other functions are built from clang's recovered AST.
pub fn parse_file(exe: &ClangExe, path: &Path, opts: &ParseOptions) -> Result<ParsedFile, ClangError> {
    // Read first: clang's own message for an unreadable file is a driver error without place.
    std::fs::File::open(path)
        .and_then(|f| f.metadata())
        .and_then(|m| {
            if m.is_file() {
                Ok(())
            } else {
                Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"))
            }
        })
        .map_err(|e| ClangError::Unreadable { file: path.to_path_buf(), message: e.to_string() })?;
    let root = opts.cache_root.clone().unwrap_or_else(headers::default_cache_root);
    let header_dir = headers::ensure_headers(&root)?;
    let mut notes = Vec::new();
    let started = Instant::now();
    let wrapper = match (&opts.appendix, &opts.appendix_decls) {
        (None, None) => None,
        (text, decls) => Some(wrapper_with(path, text.as_deref().unwrap_or(""), decls.as_deref())?),
    };
    let parsed_path = wrapper.as_ref().map_or(path.to_path_buf(), |(_, p)| p.clone());
    let (out, stubs) = invoke::run_with_stubs(exe, &parsed_path, opts, &header_dir, &mut notes)?;
    let clang_time = started.elapsed();
    let diagnostics = invoke::parse_diagnostics(&out.stderr);
    match out.code {
        Some(0) | Some(1) => {}
        other => {
            let status = match other {
                Some(c) => format!("exit code {c}"),
                None => "killed by a signal".into(),
            };
            return Err(ClangError::Crashed { file: path.to_path_buf(), status, message: tail(&out.stderr) });
        }
    }
    if out.json.is_empty() {
        return Err(ClangError::Crashed {
            file: path.to_path_buf(),
            status: "no AST printed".into(),
            message: tail(&out.stderr),
        });
    }
    let model_start = Instant::now();
    let header_prefix = header_dir.display().to_string();
    let stub_prefix = stubs.as_ref().map(|s| s.path().display().to_string());
    let appendix_file = wrapper.as_ref().map(|(_, p)| p.display().to_string());
    let appendix_name = appendix_file.clone();
    let foreign: ast::Foreign = Arc::new(move |f: &str| {
        f.starts_with(&header_prefix)
            || stub_prefix.as_deref().is_some_and(|s| f.starts_with(s))
            || appendix_name.as_deref() == Some(f)
            || f.starts_with('<')
    });
    let dump = ast::parse_dump(&out.json, foreign)
        .map_err(|message| ClangError::Json { file: path.to_path_buf(), message })?;
    let mut sources = model::Sources::default();
    let model = model::build(&dump.unit, &diagnostics, &mut sources);
    let stats = ParseStats {
        // One run, plus one more after each stand-in was created.
        clang_runs: 1 + notes.len(),
        clang_time,
        json_bytes: out.json.len(),
        model_time: model_start.elapsed(),
        skipped_decls: dump.skipped,
    };
    Ok(ParsedFile { model, notes, diagnostics, appendix_file, stats })
}

/// A temporary file that includes `path` (by its absolute name, so the file's own quoted
/// includes still resolve from its directory), then reads `appendix`, then includes a header
/// holding `decls`.
fn wrapper_with(
    path: &Path,
    appendix: &str,
    decls: Option<&str>,
) -> Result<(tempfile::TempDir, PathBuf), ClangError> {
    let fail =
        |e: std::io::Error| ClangError::Unreadable { file: path.to_path_buf(), message: e.to_string() };
    let quoted = |p: &Path| p.display().to_string().replace('\\', "\\\\").replace('"', "\\\"");
    let absolute = std::path::absolute(path).map_err(fail)?;
    let dir = tempfile::Builder::new().prefix("autosync-instances-").tempdir().map_err(fail)?;
    let wrapper = dir.path().join("instances.cu");
    let mut text = format!("#include \"{}\"\n{appendix}\n", quoted(&absolute));
    if let Some(decls) = decls {
        let header = dir.path().join(APPENDIX_DECLS_FILE);
        std::fs::write(&header, decls).map_err(fail)?;
        text.push_str(&format!("#include \"{}\"\n", quoted(&header)));
    }
    std::fs::write(&wrapper, text).map_err(fail)?;
    Ok((dir, wrapper))
}

/// The name of the header holding [`ParseOptions::appendix_decls`].
pub const APPENDIX_DECLS_FILE: &str = "assumptions.cuh";

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let start = lines.len().saturating_sub(8);
    lines[start..].join("\n")
}

#[cfg(test)]
mod tests;
