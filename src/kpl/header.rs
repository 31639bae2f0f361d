//! GPUVerify-style launch-geometry header comments: `//--blockDim=256 --gridDim=64`,
//! `//--blockDim=[16,16] --gridDim=[4,4]`, `--warp-sync=32`, and in CUDA files GPUVerify's
//! `-DNAME=VALUE` and other options (see [`parse_header_lenient`]).

use crate::diag::Diagnostic;
use crate::kpl::ast::{Geometry, Span};

/// What a file's leading `//--…` comment lines say.
#[derive(Clone, Debug, Default)]
pub struct Header {
    /// `--blockDim`, `--gridDim`, `--warp-sync`.
    pub geometry: Geometry,
    /// `-DNAME` / `-DNAME=VALUE` (GPUVerify's macro definitions), in order.
    pub defines: Vec<(String, Option<String>)>,
    /// Flags read but not honoured (a GPUVerify option that does not change what autosync
    /// checks, or one it does not know), one warning each.
    pub warnings: Vec<Diagnostic>,
}

/// GPUVerify options that do not change the semantics autosync checks (solver, inlining and
/// reporting switches); `--loop-unwind` and `--only-divergence` narrow GPUVerify's own check,
/// which autosync does not: ignoring them can only add reports.
const IGNORED: &[&str] = &[
    "--no-inline",
    "--inline",
    "--only-intra-group",
    "--equality-abstraction",
    "--check-array-bounds",
    "--only-divergence",
    "--only-log",
    "--loop-unwind",
    "--no-benign",
    "--no-barrier-access-checks",
    "--no-loop-predicate-invariants",
    "--no-smart-predication",
    "--no-uniformity-analysis",
    "--adversarial-abstraction",
    "--asymmetric-asserts",
    "--atomic",
    "--array-equalities",
    "--boogie-file",
    "--clang-opt",
    "--gen-smt2",
    "--kernel-args",
    "--kernel-arrays",
    "--math-int",
    "--memout",
    "--timeout",
    "--time",
    "--stop-at-gbpl",
    "--stop-at-bpl",
    "--verbose",
    "--vcgen-opt",
    "--boogie-opt",
    "--infer-info",
    "--k-induction-depth",
    "--debug",
    "--silent",
    "--race-instrumenter",
    "--solver",
    "--staged-inference",
    "--warp-sync-fixed",
    "--global_size",
    "--local_size",
    "--num_groups",
];

/// Reads the geometry from the leading `//--…` comment lines of a file (blank lines and other
/// comments may precede them). Strict (the KPL front end): an unknown `--flag` or a `-D` is an
/// error naming it; GPUVerify's options that do not change meaning are accepted and ignored.
pub fn parse_header(src: &str) -> Result<Geometry, Diagnostic> {
    let h = read_header(src, true)?;
    Ok(h.geometry)
}

/// Like [`parse_header`] for CUDA files, which carry GPUVerify's command line: `-DNAME[=V]` is
/// a macro definition, and a flag autosync does not honour is a warning, never an error. Only a
/// malformed value of a flag it honours (`--blockDim=0`) is an error.
pub fn parse_header_lenient(src: &str) -> Result<Header, Diagnostic> {
    read_header(src, false)
}

fn read_header(src: &str, strict: bool) -> Result<Header, Diagnostic> {
    let mut h = Header::default();
    let mut offset = 0;
    let mut in_block = false;
    for line in src.split_inclusive('\n') {
        let trimmed = line.trim();
        let line_start = offset;
        offset += line.len();
        if in_block {
            in_block = !trimmed.contains("*/");
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        // A `/* … */` comment (a licence block) may precede the header like `//` lines.
        if let Some(after) = trimmed.strip_prefix("/*") {
            in_block = !after.contains("*/");
            continue;
        }
        let Some(rest) = trimmed.strip_prefix("//") else {
            late_header_line(&src[line_start..], line_start)?;
            break;
        };
        let rest = rest.trim_start();
        let define = !strict && rest.starts_with("-D");
        if !rest.starts_with("--") && !define {
            continue;
        }
        let base = line_start + line.find(rest).unwrap_or(0);
        let mut pos = 0;
        // Flags read but not honoured, gathered per line so a long garbled line is one warning
        // per kind, not one per word.
        let mut ignored: Vec<(&str, Span)> = Vec::new();
        let mut unknown: Vec<(&str, Span)> = Vec::new();
        for word in rest.split_whitespace() {
            let at = rest[pos..].find(word).map(|i| pos + i).unwrap_or(pos);
            pos = at + word.len();
            let span = Span::new(base + at, base + at + word.len());
            let (flag, value) = word.split_once('=').unwrap_or((word, ""));
            match flag {
                "--blockDim" | "--blockdim" => h.geometry.block_dim = Some(parse_dims(value, span)?),
                "--gridDim" | "--griddim" => h.geometry.grid_dim = Some(parse_dims(value, span)?),
                "--warp-sync" => {
                    h.geometry.warp_sync = Some(value.parse().map_err(|_| {
                        Diagnostic::error(format!("invalid warp size `{value}`"), span)
                            .with_label("expected a number, e.g. `--warp-sync=32`")
                    })?)
                }
                _ if !strict && flag.starts_with("-D") && flag.len() > 2 => {
                    let name = flag[2..].to_string();
                    let ident = |c: char| c == '_' || c.is_ascii_alphanumeric();
                    if !name.chars().all(ident) || name.starts_with(|c: char| c.is_ascii_digit()) {
                        return Err(Diagnostic::error(format!("`{name}` is not a macro name"), span)
                            .with_label("in this `-D` header flag"));
                    }
                    let value = word.split_once('=').map(|(_, v)| v.to_string());
                    h.defines.push((name, value));
                }
                _ if IGNORED.contains(&flag) => {
                    if !strict {
                        ignored.push((flag, span));
                    }
                }
                _ if !strict => unknown.push((flag, span)),
                _ => {
                    return Err(Diagnostic::error(format!("unknown header flag `{flag}`"), span)
                        .with_note("header lines understand --blockDim=…, --gridDim=… and --warp-sync=…"))
                }
            }
        }
        if let Some(w) = flags_warning("header flag", &ignored, "it does not change what autosync checks") {
            h.warnings.push(w);
        }
        let understood = "header lines understand --blockDim=…, --gridDim=…, --warp-sync=… and -DNAME=…";
        if let Some(w) = flags_warning("unknown header flag", &unknown, understood) {
            h.warnings.push(w);
        }
    }
    Ok(h)
}

/// One warning for the flags of one header line that are `ignored`, at the first of them: it
/// names up to three and counts the rest.
fn flags_warning(what: &str, flags: &[(&str, Span)], note: &str) -> Option<Diagnostic> {
    let (_, first) = *flags.first()?;
    let shown: Vec<String> = flags.iter().take(3).map(|(f, _)| format!("`{f}`")).collect();
    let more = match flags.len() {
        n if n > 3 => format!(" and {} more", n - 3),
        _ => String::new(),
    };
    let plural = if flags.len() > 1 { "s" } else { "" };
    Some(
        Diagnostic::warning(format!("{what}{plural} {}{more} ignored", shown.join(", ")), first)
            .with_note(note),
    )
}

/// A header line after the first line of code would be ignored, and the geometry would silently
/// become symbolic: it is an error at the line instead (the header must come first).
fn late_header_line(rest: &str, base: usize) -> Result<(), Diagnostic> {
    let mut offset = base;
    for line in rest.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let Some(flags) = line.trim().strip_prefix("//").map(str::trim_start) else { continue };
        if ["--blockDim", "--gridDim", "--warp-sync"].iter().any(|f| flags.starts_with(f)) {
            let at = start + line.len() - line.trim_start().len();
            return Err(Diagnostic::error("launch header line after code", Span::new(at, at + line.trim().len()))
                .with_label("this line would be ignored here")
                .with_note("`//--blockDim=… --gridDim=…` lines count only before the first line of code; move it to the top"));
        }
    }
    Ok(())
}

/// Parses `256`, `[16,16]` or `16,16` into a 3-D size (missing dimensions are 1).
pub fn parse_dims(value: &str, span: Span) -> Result<[u32; 3], Diagnostic> {
    let inner = value.trim().trim_start_matches('[').trim_end_matches(']');
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let bad = || {
        Diagnostic::error(format!("invalid dimensions `{value}`"), span)
            .with_label("expected 1 to 3 positive numbers, e.g. `256` or `[16,16]`")
    };
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    let mut dims = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        dims[i] = p.parse().ok().filter(|v| *v > 0).ok_or_else(bad)?;
    }
    Ok(dims)
}
