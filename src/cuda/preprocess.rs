//! The C preprocessor of the CUDA front end, with a source map back to the user's file.
//!
//! `preprocess` turns a `.cu` file into the text tree-sitter-cuda parses:
//! - `#define` (object- and function-like, `#`, `##`, variadic), `#undef`, expansion with the
//!   usual hide-set rule (a macro never expands inside its own expansion);
//! - `#include "file"` searched next to the including file, then in the `-I` directories, in
//!   order (a missing file or an include cycle is an error, except for a system header's name);
//!   `#include <…>` and a system header not found (`cuda_runtime.h`, `cmath`, `helper_cuda.h`,
//!   …) resolve to a built-in prelude of macros (`prelude`: `INFINITY`, `INT_MAX`, …); `#pragma
//!   once` is honoured;
//! - `#if`/`#ifdef`/`#ifndef`/`#elif`/`#elifdef`/`#elifndef`/`#else`/`#endif` with `defined`
//!   and integer constant expressions (64-bit);
//! - `-D NAME[=VALUE]` after the predefined `__CUDACC__`, `__NVCC__`, `__CUDA_ARCH__` (700: the
//!   first architecture with independent thread scheduling, which is the default semantics) and
//!   `__cplusplus` (201703L); `__LINE__` and `__FILE__`;
//! - `#pragma` lines are blanked (they do not change what a kernel does), `#error` is an error, `#line` and
//!   `#warning` are dropped;
//! - a file-scope `typedef` of a scalar type (`typedef unsigned int uint;`) makes later uses of the
//!   name expand to the type, so the lowering sees a type it knows.
//!
//! # Guarantees
//! - Text outside macro invocations keeps its bytes and its offsets' layout: directive lines and
//!   skipped groups become spaces of the same length (newlines kept), so most offsets of the
//!   preprocessed text equal those of the user's file, and the [`SourceMap`] maps every offset back.
//! - A macro invocation is replaced by its expansion on one line; included text replaces the
//!   `#include` line. The map marks both, so nothing lands inside them (see [`map`]).
//! - Every error is a [`Diagnostic`] at the directive or invocation in the user's file (errors in
//!   an included file point at the `#include` line, with a note giving the header position).
//!
//! # Approximations
//! - A line splice inside a token splits the token; `_Pragma`, `__VA_OPT__`, `__has_include` and
//!   computed includes of the `<…>` form produced by macros are not supported.
//! - `#if` arithmetic is signed 64-bit throughout.
//! - The analysis, and so the patch, is for the configuration the `-D` flags select: a barrier may
//!   land inside an `#if` group that is active in that configuration.

mod cond;
mod expand;
mod lex;
pub mod map;
mod prelude;

use super::FrontEndOptions;
use crate::diag::{Diagnostic, Severity};
use crate::kpl::ast::Span;
use expand::{parse_define, Macro, Macros};
use lex::{Kind, Line, Tok};
pub use map::SourceMap;
use map::{Origin, Seg};
use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The preprocessed text and how it maps back to the user's file.
#[derive(Clone, Debug)]
pub struct Preprocessed {
    /// The expanded text (what tree-sitter-cuda parses).
    pub text: String,
    /// Offsets of `text` back to the user's file.
    pub map: SourceMap,
}

/// Preprocesses `source` (the file `options.path`, if given) with the `-I` and `-D` options.
///
/// Errors: a malformed directive or `-D`, an unterminated conditional or comment, a missing or
/// unreadable include, an include cycle, `#error`, a macro invoked with the wrong number of
/// arguments or an unterminated argument list, a failed `##` paste.
pub fn preprocess(source: &str, options: &FrontEndOptions) -> Result<Preprocessed, Diagnostic> {
    let mut pp = Pp::new(options)?;
    let display = options.path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "<input>".into());
    let main = FileCtx::new(options.path.clone(), display, source.into());
    if let Some(p) = options.path.as_ref().and_then(|p| std::fs::canonicalize(p).ok()) {
        pp.stack.push(p);
    }
    let out = pp.file(&main)?;
    Ok(Preprocessed { text: out.text, map: SourceMap { segs: out.segs } })
}

/// One file being preprocessed.
struct FileCtx {
    path: Option<PathBuf>,
    display: String,
    text: Rc<str>,
    line_starts: Vec<usize>,
}

impl FileCtx {
    fn new(path: Option<PathBuf>, display: String, text: Rc<str>) -> FileCtx {
        let line_starts = std::iter::once(0)
            .chain(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1))
            .collect();
        FileCtx { path, display, text, line_starts }
    }
    fn line(&self, at: usize) -> usize {
        self.line_starts.partition_point(|s| *s <= at)
    }
    fn position(&self, at: usize) -> String {
        let line = self.line(at);
        let start = self.line_starts.get(line - 1).copied().unwrap_or(0).min(at);
        let col = self.text.get(start..at).map_or(0, |s| s.chars().count()) + 1;
        format!("{}:{line}:{col}", self.display)
    }
}

/// The preprocessed text of one file under construction.
#[derive(Default)]
struct Out {
    text: String,
    segs: Vec<Seg>,
    /// Bytes of the file before this offset are accounted for.
    cursor: usize,
}

impl Out {
    fn push_verbatim(&mut self, src: usize, piece: &str) {
        if piece.is_empty() {
            return;
        }
        let out = self.text.len();
        self.text.push_str(piece);
        if let Some(Seg { out: o, len, origin: Origin::Verbatim(s) }) = self.segs.last_mut() {
            if *o + *len == out && *s + *len == src {
                *len += piece.len();
                return;
            }
        }
        self.segs.push(Seg { out, len: piece.len(), origin: Origin::Verbatim(src) });
    }
    /// Copies the file's bytes up to `p`.
    fn verbatim_to(&mut self, text: &str, p: usize) {
        if p > self.cursor {
            let piece = text.get(self.cursor..p).unwrap_or("");
            self.push_verbatim(self.cursor, piece);
            self.cursor = p;
        }
    }
    /// Replaces the file's bytes up to `p` by spaces, keeping newlines (same length, same lines).
    fn blank_to(&mut self, text: &str, p: usize) {
        if p > self.cursor {
            let piece = text.get(self.cursor..p).unwrap_or("");
            let blank: String = piece.bytes().map(|b| if b == b'\n' { '\n' } else { ' ' }).collect();
            self.push_verbatim(self.cursor, &blank);
            self.cursor = p;
        }
    }
    /// Emits generated text standing for the file's bytes `cursor..to`.
    fn generated(&mut self, piece: &str, origin: Origin, to: usize) {
        self.segs.push(Seg { out: self.text.len(), len: piece.len(), origin });
        self.text.push_str(piece);
        self.cursor = self.cursor.max(to);
    }
    /// Emits an included file's text in place of the directive `directive`.
    fn include(&mut self, child: Out, directive: Span, f: &FileCtx) {
        let base = self.text.len();
        for s in child.segs {
            self.segs.push(Seg {
                out: base + s.out,
                len: s.len,
                origin: Origin::Include {
                    directive,
                    file: f.display.clone(),
                    text: f.text.clone(),
                    at: Box::new(s.origin),
                },
            });
        }
        self.text.push_str(&child.text);
        self.cursor = directive.end;
    }
}

/// An open conditional group.
struct Cond {
    span: Span,
    /// The enclosing group is active.
    parent: bool,
    /// Some branch so far was taken.
    taken: bool,
    else_seen: bool,
    active: bool,
}

/// A top-level macro invocation being expanded: the user's bytes it covers and the tokens so far.
struct Group {
    start: usize,
    end: usize,
    mac: Option<Rc<Macro>>,
    name: String,
    toks: Vec<Tok>,
}

struct Pp<'o> {
    options: &'o FrontEndOptions,
    macros: Macros,
    /// Canonical paths of the files being processed, outermost first.
    stack: Vec<PathBuf>,
    once: HashSet<PathBuf>,
    typedefs: TypedefScan,
}

const PREDEFINED: [(&str, &str); 4] =
    [("__CUDACC__", "1"), ("__NVCC__", "1"), ("__CUDA_ARCH__", "700"), ("__cplusplus", "201703L")];

fn define_error(n: &str, v: &Option<String>, why: String) -> Diagnostic {
    let shown = match v {
        Some(v) => format!("{n}={v}"),
        None => n.to_string(),
    };
    Diagnostic::bare(Severity::Error, format!("invalid `-D {shown}`: {why}"))
}

impl<'o> Pp<'o> {
    fn new(options: &'o FrontEndOptions) -> Result<Pp<'o>, Diagnostic> {
        let mut pp = Pp {
            options,
            macros: Macros::default(),
            stack: Vec::new(),
            once: HashSet::new(),
            typedefs: TypedefScan::default(),
        };
        for (n, v) in PREDEFINED {
            let toks = lex::lex(&format!("{n} {v}"))?;
            let m =
                parse_define(&toks, "<built-in>".into()).map_err(|m| Diagnostic::bare(Severity::Error, m))?;
            pp.macros.defs.insert(m.name.clone(), Rc::new(m));
        }
        for (n, v) in &options.defines {
            let name = lex::lex(n).map_err(|d| define_error(n, v, d.message))?;
            let well_formed = match name.as_slice() {
                [t] => t.kind == Kind::Ident,
                [t, open, .., close] => t.kind == Kind::Ident && open.is("(") && !open.ws && close.is(")"),
                _ => false,
            };
            if !well_formed {
                return Err(define_error(n, v, format!("`{n}` is not a macro name")));
            }
            let toks = lex::lex(&format!("{n} {}", v.as_deref().unwrap_or("1")))
                .map_err(|d| define_error(n, v, d.message))?;
            if toks.iter().any(|t| t.kind == Kind::Newline) {
                return Err(define_error(n, v, "the value spans lines".into()));
            }
            let m = parse_define(&toks, "the command line".into()).map_err(|m| define_error(n, v, m))?;
            pp.macros.defs.insert(m.name.clone(), Rc::new(m));
        }
        Ok(pp)
    }

    /// Preprocesses one file.
    fn file(&mut self, f: &FileCtx) -> Result<Out, Diagnostic> {
        let text = &*f.text;
        let lines = lex::lines(text, lex::lex(text)?);
        let mut out = Out::default();
        let mut conds: Vec<Cond> = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let active = conds.last().is_none_or(|c| c.active);
            if lines[i].is_directive() {
                self.directive(f, &lines[i], &mut conds, &mut out, active)?;
                i += 1;
                continue;
            }
            let j = (i..lines.len()).find(|&k| lines[k].is_directive()).unwrap_or(lines.len());
            let end = lines[j - 1].end;
            if active {
                let toks: Vec<Tok> = lines[i..j].iter().flat_map(|l| l.toks.iter().cloned()).collect();
                self.text_run(f, toks, &mut out)?;
                out.verbatim_to(text, end);
            } else {
                out.verbatim_to(text, lines[i].start);
                out.blank_to(text, end);
            }
            i = j;
        }
        if let Some(c) = conds.last() {
            return Err(Diagnostic::error(
                "unterminated conditional: no `#endif` for this directive",
                c.span,
            )
            .with_label("opened here"));
        }
        out.verbatim_to(text, text.len());
        Ok(out)
    }

    /// Expands the macros of a run of text lines (tokens of consecutive non-directive lines).
    fn text_run(&mut self, f: &FileCtx, toks: Vec<Tok>, out: &mut Out) -> Result<(), Diagnostic> {
        let text = &*f.text;
        let mut input: VecDeque<Tok> = toks.into();
        let mut group: Option<Group> = None;
        while let Some(t) = input.pop_front() {
            if t.src {
                if let Some(g) = group.take() {
                    close(g, text, out);
                }
                if t.kind == Kind::Ident {
                    self.macros.line = f.line(t.start);
                    self.macros.file = f.display.clone();
                }
            }
            let site = match &group {
                Some(g) => Span::new(g.start, g.end.max(if t.src { t.end } else { 0 })),
                None => t.span(),
            };
            let expanded = self.macros.try_expand(&t, &mut input).map_err(|e| {
                let d = Diagnostic::error(e.0, site).with_label("in this macro invocation");
                match group.as_ref().and_then(|g| g.mac.as_ref()) {
                    Some(m) => d.with_note(format!(
                        "in the expansion of {} `{}` (defined at {})",
                        m.what, m.name, m.defined
                    )),
                    None => d,
                }
            })?;
            match expanded {
                Some(e) => {
                    let g = group.get_or_insert_with(|| Group {
                        start: t.start,
                        end: t.end,
                        mac: self.macros.defs.get(&e.name).cloned(),
                        name: e.name.clone(),
                        toks: Vec::new(),
                    });
                    if let Some(end) = e.consumed_src_end {
                        g.end = g.end.max(end);
                    }
                    for x in e.toks.into_iter().rev() {
                        input.push_front(x);
                    }
                }
                None => {
                    if let Some(m) = self.typedefs.feed(&t, f) {
                        self.macros.defs.insert(m.name.clone(), Rc::new(m));
                    }
                    if let Some(g) = group.as_mut() {
                        g.toks.push(t);
                    }
                }
            }
        }
        if let Some(g) = group.take() {
            close(g, text, out);
        }
        Ok(())
    }

    fn directive(
        &mut self,
        f: &FileCtx,
        line: &Line,
        conds: &mut Vec<Cond>,
        out: &mut Out,
        active: bool,
    ) -> Result<(), Diagnostic> {
        let text = &*f.text;
        let start = line.toks.first().map(|t| t.start).unwrap_or(line.start);
        let span = Span::new(start, line.end);
        let name_tok = line.toks.get(1);
        let name = name_tok.filter(|t| t.kind == Kind::Ident).map(|t| &*t.text).unwrap_or("");
        let args = line.toks.get(2..).unwrap_or(&[]);
        let err = |msg: String| Diagnostic::error(msg, span);
        let top = |conds: &mut Vec<Cond>| -> Result<usize, Diagnostic> {
            conds
                .len()
                .checked_sub(1)
                .ok_or_else(|| Diagnostic::error(format!("`#{name}` without `#if`"), span))
        };
        match name {
            "if" | "ifdef" | "ifndef" => {
                let v = active && self.condition(f, name, args, span)?;
                conds.push(Cond { span, parent: active, taken: v, else_seen: false, active: v });
            }
            "elif" | "elifdef" | "elifndef" => {
                let k = top(conds)?;
                if conds[k].else_seen {
                    return Err(err(format!("`#{name}` after `#else`")));
                }
                let try_it = conds[k].parent && !conds[k].taken;
                let v = try_it && self.condition(f, name, args, span)?;
                conds[k].active = v;
                conds[k].taken |= v;
            }
            "else" => {
                let k = top(conds)?;
                if conds[k].else_seen {
                    return Err(err("a second `#else` for one `#if`".into()));
                }
                let c = &mut conds[k];
                c.else_seen = true;
                c.active = c.parent && !c.taken;
                c.taken = true;
            }
            "endif" => {
                top(conds)?;
                conds.pop();
            }
            _ if !active => {}
            "define" => {
                let m = parse_define(args, f.position(start)).map_err(err)?;
                self.macros.defs.insert(m.name.clone(), Rc::new(m));
            }
            "undef" => match args.first() {
                Some(t) if t.kind == Kind::Ident => {
                    self.macros.defs.remove(&*t.text);
                }
                _ => return Err(err("`#undef` needs a macro name".into())),
            },
            "include" => return self.include(f, line, args, span, out),
            "pragma" => {
                // Blanked like every directive: `#pragma unroll` and friends do not change what
                // the kernel does, and a pragma between a braceless `for` and its body would not
                // parse.
                if args.first().is_some_and(|t| &*t.text == "once") {
                    if let Some(p) = f.path.as_ref().and_then(|p| std::fs::canonicalize(p).ok()) {
                        self.once.insert(p);
                    }
                }
            }
            "error" => {
                let msg = text.get(name_tok.map(|t| t.end).unwrap_or(start)..line.end).unwrap_or("").trim();
                return Err(err(format!("#error {msg}")).with_label("`#error` directive"));
            }
            "warning" | "line" | "ident" => {}
            "" if name_tok.is_none_or(|t| t.kind == Kind::Number) => {}
            other => {
                let shown = if other.is_empty() { name_tok.map(|t| &*t.text).unwrap_or("") } else { other };
                return Err(err(format!("unknown preprocessor directive `#{shown}`")));
            }
        }
        out.verbatim_to(text, line.start);
        out.blank_to(text, line.end);
        Ok(())
    }

    /// The truth value of an `#if`/`#elif`/`#ifdef`-like directive.
    fn condition(&mut self, f: &FileCtx, kind: &str, args: &[Tok], span: Span) -> Result<bool, Diagnostic> {
        if kind.ends_with("def") {
            let negate = kind.ends_with("ndef");
            return match args.first() {
                Some(t) if t.kind == Kind::Ident => Ok(self.is_defined(&t.text) != negate),
                _ => Err(Diagnostic::error(format!("`#{kind}` needs a macro name"), span)),
            };
        }
        if args.is_empty() {
            return Err(Diagnostic::error(format!("`#{kind}` without a condition"), span));
        }
        let mut toks = Vec::new();
        let mut k = 0;
        while k < args.len() {
            if &*args[k].text == "defined" {
                let paren = args.get(k + 1).is_some_and(|t| t.is("("));
                let at = if paren { k + 2 } else { k + 1 };
                let name = args.get(at).filter(|t| t.kind == Kind::Ident);
                let closed = !paren || args.get(at + 1).is_some_and(|t| t.is(")"));
                let Some(name) = name.filter(|_| closed) else {
                    return Err(Diagnostic::error("`defined` needs a macro name: `defined(NAME)`", span));
                };
                let v = if self.is_defined(&name.text) { "1" } else { "0" };
                toks.push(Tok::made(Kind::Number, v, true));
                k = if paren { at + 2 } else { at + 1 };
            } else {
                toks.push(args[k].clone());
                k += 1;
            }
        }
        self.macros.line = f.line(span.start);
        let expanded = self.macros.expand_list(toks).map_err(|e| Diagnostic::error(e.0, span))?;
        // Identifiers left after expansion are 0 (C11 6.10.1p4); `true` is 1 in C++.
        let toks: Vec<Tok> = expanded
            .into_iter()
            .map(|t| match t.kind {
                Kind::Ident => Tok::made(Kind::Number, if &*t.text == "true" { "1" } else { "0" }, t.ws),
                _ => t,
            })
            .collect();
        cond::eval(&toks).map(|v| v != 0).map_err(|m| match m.strip_prefix(cond::TOO_DEEP) {
            Some(why) => Diagnostic::error(cond::TOO_DEEP, span).with_label(format!("in `#{kind}`{why}")),
            None => Diagnostic::error(format!("in `#{kind}`: {m}"), span),
        })
    }

    fn is_defined(&self, name: &str) -> bool {
        self.macros.defs.contains_key(name) || matches!(name, "__LINE__" | "__FILE__")
    }

    fn include(
        &mut self,
        f: &FileCtx,
        line: &Line,
        args: &[Tok],
        span: Span,
        out: &mut Out,
    ) -> Result<(), Diagnostic> {
        let text = &*f.text;
        let raw = args.first().map(|t| text.get(t.start..line.end).unwrap_or("").trim()).unwrap_or("");
        let name = if raw.starts_with('<') {
            None
        } else if args.first().is_some_and(|t| t.kind == Kind::Str) {
            args.first().map(|t| t.text.trim_matches('"').to_string())
        } else {
            self.macros.line = f.line(span.start);
            let e = self.macros.expand_list(args.to_vec()).map_err(|e| Diagnostic::error(e.0, span))?;
            match e.as_slice() {
                [t] if t.kind == Kind::Str => Some(t.text.trim_matches('"').to_string()),
                [t, ..] if t.is("<") => None,
                _ => return Err(Diagnostic::error("`#include` expects \"FILE\" or <FILE>", span)),
            }
        };
        let system = match &name {
            None => true,
            Some(n) => self.resolve(f, n).is_none() && prelude::is_system_header(n),
        };
        let Some(name) = name.filter(|_| !system) else {
            // A system header: the prelude stands for it (see `prelude`).
            self.prelude()?;
            out.verbatim_to(text, line.start);
            out.blank_to(text, line.end);
            return Ok(());
        };
        let path = self.resolve(f, &name).ok_or_else(|| {
            let mut searched: Vec<String> = Vec::new();
            if let Some(d) = f.path.as_deref().map(dir_of) {
                searched.push(d.display().to_string());
            }
            searched.extend(self.options.include_dirs.iter().map(|d| d.display().to_string()));
            let d = Diagnostic::error(format!("cannot find the included file `{name}`"), span)
                .with_label("included here");
            if searched.is_empty() {
                d.with_note("no directory to search: give the file's path or `-I DIR`")
            } else {
                d.with_note(format!("searched: {}", searched.join(", ")))
            }
        })?;
        let canonical = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if self.once.contains(&canonical) {
            out.verbatim_to(text, line.start);
            out.blank_to(text, line.end);
            return Ok(());
        }
        if self.stack.iter().filter(|p| **p == canonical).count() >= 2 {
            // The cycle proper: from the last time this file was entered.
            let from = self.stack.iter().rposition(|p| *p == canonical).unwrap_or(0);
            let chain: Vec<String> = self.stack[from..]
                .iter()
                .chain(std::iter::once(&canonical))
                .map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
                .collect();
            return Err(Diagnostic::error(format!("include cycle: {}", chain.join(" -> ")), span)
                .with_label("includes a file that is already being included"));
        }
        // The same reader as for the main file: regular files only, bounded, BOM and stray bytes.
        let body = match crate::source::read(&path) {
            Ok(input) => input.text,
            Err(crate::source::SourceError::Bytes { diag, .. }) => {
                return Err(Diagnostic::error(
                    format!("in the included file `{}`: {}", path.display(), diag.message),
                    span,
                ))
            }
            Err(e) => return Err(Diagnostic::error(format!("cannot read the included file: {e}"), span)),
        };
        let child = FileCtx::new(Some(path.clone()), name.clone(), body.into());
        self.stack.push(canonical);
        let r = self.file(&child);
        self.stack.pop();
        let child_out = r.map_err(|d| relocate(d, &child, span))?;
        out.verbatim_to(text, line.start);
        out.include(child_out, span, &child);
        out.cursor = line.end;
        Ok(())
    }

    /// Defines the prelude's macros the file has not defined (once).
    fn prelude(&mut self) -> Result<(), Diagnostic> {
        for (n, v) in prelude::MACROS {
            if self.macros.defs.contains_key(*n) {
                continue;
            }
            let toks = lex::lex(&format!("{n} {v}"))?;
            let m = parse_define(&toks, "<built-in prelude>".into())
                .map_err(|m| Diagnostic::bare(Severity::Error, m))?;
            self.macros.defs.insert(m.name.clone(), Rc::new(m));
        }
        Ok(())
    }

    fn resolve(&self, f: &FileCtx, name: &str) -> Option<PathBuf> {
        let own = f.path.as_deref().map(|p| dir_of(p).to_path_buf());
        own.into_iter()
            .chain(self.options.include_dirs.iter().cloned())
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    }
}

fn dir_of(p: &Path) -> &Path {
    p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Ends a top-level invocation: its expansion replaces the user's bytes `start..end`.
fn close(g: Group, text: &str, out: &mut Out) {
    out.verbatim_to(text, g.start);
    let (what, defined) = match &g.mac {
        Some(m) => (m.what, m.defined.clone()),
        None => ("macro", "<built-in>".to_string()),
    };
    let origin = Origin::Macro { call: Span::new(g.start, g.end), name: g.name, what, defined };
    out.generated(&lex::spell(&g.toks), origin, g.end);
}

/// An error inside an included file, moved to the `#include` line with the header position.
fn relocate(mut d: Diagnostic, child: &FileCtx, directive: Span) -> Diagnostic {
    if let Some(s) = d.span {
        d.notes.insert(0, format!("at `{}`, included here", child.position(s.start)));
    }
    d.secondary.clear();
    d.span = Some(directive);
    d
}

/// Recognizes file-scope `typedef <scalar type> NAME;` in the output token stream.
#[derive(Default)]
struct TypedefScan {
    depth: i64,
    /// Tokens after a `typedef` at file scope, while they can still be a scalar typedef.
    collecting: Option<Vec<Tok>>,
}

const SCALAR_WORDS: [&str; 27] = [
    "unsigned",
    "signed",
    "int",
    "short",
    "long",
    "char",
    "float",
    "double",
    "bool",
    "const",
    "volatile",
    "size_t",
    "ptrdiff_t",
    "ssize_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "uint",
    "uchar",
    "ushort",
    "__restrict__",
    "register",
];

impl TypedefScan {
    fn feed(&mut self, t: &Tok, f: &FileCtx) -> Option<Macro> {
        if t.is("{") {
            self.depth += 1;
            self.collecting = None;
        } else if t.is("}") {
            self.depth -= 1;
        }
        if self.collecting.is_some() {
            if t.is(";") {
                let c = self.collecting.take().unwrap_or_default();
                let (name, ty) = c.split_last()?;
                let scalar = !ty.is_empty() && ty.iter().all(|w| SCALAR_WORDS.contains(&&*w.text));
                if !scalar || name.kind != Kind::Ident || SCALAR_WORDS.contains(&&*name.text) {
                    return None;
                }
                let mut body: Vec<Tok> = ty.to_vec();
                for b in &mut body {
                    b.hide = Rc::default();
                }
                let defined = if name.src { f.position(name.start) } else { f.display.clone() };
                return Some(Macro {
                    name: name.text.to_string(),
                    params: None,
                    variadic: false,
                    body,
                    defined,
                    what: "typedef",
                });
            } else if t.kind == Kind::Ident {
                if let Some(c) = self.collecting.as_mut() {
                    c.push(t.clone());
                }
            } else {
                self.collecting = None;
            }
        } else if self.depth == 0 && t.kind == Kind::Ident && &*t.text == "typedef" {
            self.collecting = Some(Vec::new());
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pp(src: &str) -> Result<Preprocessed, Diagnostic> {
        preprocess(src, &FrontEndOptions::default())
    }

    #[test]
    fn typedef_names_expand_to_their_scalar_type() {
        let p = pp("typedef unsigned int u32x;\nu32x a;\n").expect("ok");
        assert_eq!(p.text, "typedef unsigned int u32x;\nunsigned int a;\n");
    }
}
