//! GPUVerify-style launch-geometry header comments: `//--blockDim=256 --gridDim=64`,
//! `//--blockDim=[16,16] --gridDim=[4,4]`, `--warp-sync=32`.

use crate::diag::Diagnostic;
use crate::kpl::ast::{Geometry, Span};

/// Reads the geometry from the leading `//--…` comment lines of a file (blank lines and other
/// comments may precede them). Unknown `--flags` in such a line are an error naming the flag.
pub fn parse_header(src: &str) -> Result<Geometry, Diagnostic> {
    let mut g = Geometry::default();
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
        if !rest.starts_with("--") {
            continue;
        }
        let base = line_start + line.find("--").unwrap_or(0);
        let mut pos = 0;
        for word in rest.split_whitespace() {
            let at = rest[pos..].find(word).map(|i| pos + i).unwrap_or(pos);
            pos = at + word.len();
            let span = Span::new(base + at, base + at + word.len());
            let (flag, value) = word.split_once('=').unwrap_or((word, ""));
            match flag {
                "--blockDim" => g.block_dim = Some(parse_dims(value, span)?),
                "--gridDim" => g.grid_dim = Some(parse_dims(value, span)?),
                "--warp-sync" => {
                    g.warp_sync = Some(value.parse().map_err(|_| {
                        Diagnostic::error(format!("invalid warp size `{value}`"), span)
                            .with_label("expected a number, e.g. `--warp-sync=32`")
                    })?)
                }
                // GPUVerify flags that do not change the semantics autosync checks.
                "--no-inline" | "--only-intra-group" | "--equality-abstraction" | "--check-array-bounds" => {}
                _ => {
                    return Err(Diagnostic::error(format!("unknown header flag `{flag}`"), span)
                        .with_note("header lines understand --blockDim=…, --gridDim=… and --warp-sync=…"))
                }
            }
        }
    }
    Ok(g)
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
