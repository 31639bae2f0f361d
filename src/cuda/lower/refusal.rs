//! Refusing a kernel with every construct it uses that the lowering does not model, not only
//! the first.
//!
//! Lowering goes on after an unsupported statement (or parameter) so that the user sees all of
//! them at once; the kernel lowered that way is never used — one recorded refusal discards it —
//! so what the lowering emits after an error does not matter, only that it does not panic.
//! Cascades are kept out: a declaration or parameter that failed poisons the names it
//! declares, and later errors at a use of them (`x`, `x.f`, `x[i]`) are not reported again.

use super::*;

/// The most constructs one refusal lists; past it lowering stops.
pub(super) const MAX_CONSTRUCTS: usize = 10;

/// What lowering refused so far in the kernel being lowered.
#[derive(Default)]
pub(super) struct Refusals {
    found: Vec<Diagnostic>,
    /// Names declared by statements or parameters that failed to lower.
    poisoned: HashSet<String>,
}

impl Refusals {
    /// Records the error of a statement or parameter `at` (which may declare names). `Err` when
    /// the limit is reached: lowering stops there.
    fn record(&mut self, d: Diagnostic, at: Node, src: &str) -> R<()> {
        // A cascade: an error at a use of a name whose declaration failed (`b`, `b.n`, `b[i]`).
        let used = d.span.and_then(|s| src.get(s.start..s.end)).map(|t| {
            let end = t.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(t.len());
            &t[..end]
        });
        let known = self.found.iter().any(|x| x.span == d.span && x.message == d.message);
        let cascade = used.is_some_and(|n| self.poisoned.contains(n));
        declared_names(at, src, &mut self.poisoned);
        if known || cascade {
            return Ok(());
        }
        self.found.push(d.clone());
        if self.found.len() >= MAX_CONSTRUCTS {
            return Err(d);
        }
        Ok(())
    }

    /// Records the error that stopped lowering (unless it is the last one recorded).
    pub(super) fn last(&mut self, d: Diagnostic) {
        if !self.found.iter().any(|x| x.span == d.span && x.message == d.message) {
            self.found.push(d);
        }
    }

    /// One diagnostic for the kernel `name`: the first construct as the primary location (its
    /// message, label and notes), the others as secondary locations, in source order of finding.
    pub(super) fn merged(&self, name: &str) -> Option<Diagnostic> {
        let mut all = self.found.iter();
        let mut d = all.next()?.clone();
        let more = self.found.len() - 1;
        for x in all {
            if let Some(s) = x.span {
                d = d.with_secondary(s, format!("also {}", x.message));
            }
        }
        let what = match more {
            // One construct: the error alone says it (and the file's other kernels still run).
            0 => return Some(d),
            n if self.found.len() >= MAX_CONSTRUCTS => {
                format!(": it uses at least {n} more construct(s) the front end does not model (marked)")
            }
            n => format!(": it uses {n} more construct(s) the front end does not model (marked)"),
        };
        Some(d.with_note(format!("kernel `{name}` is not analysed{what}")))
    }
}

impl<'t> Lx<'_, 't> {
    /// The result of lowering the statement or parameter `at`: an error is recorded and
    /// lowering goes on (see the module documentation), until [`MAX_CONSTRUCTS`].
    pub(super) fn recover(&mut self, r: R<()>, at: Node) -> R<()> {
        match r {
            Ok(()) => Ok(()),
            Err(d) => self.refusals.record(d, at, self.src),
        }
    }
}

/// The names `n` declares: its declarators' identifiers (a declaration, a parameter), or nothing.
fn declared_names(n: Node, src: &str, out: &mut HashSet<String>) {
    if !matches!(n.kind(), "declaration" | "parameter_declaration" | "optional_parameter_declaration") {
        return;
    }
    let mut c = n.walk();
    let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
    for mut d in decls {
        while d.kind() != "identifier" {
            let next = match d.kind() {
                "init_declarator" | "pointer_declarator" | "array_declarator" | "reference_declarator" => {
                    crate::cuda::inner_declarator(d)
                }
                _ => None,
            };
            match next {
                Some(x) => d = x,
                None => break,
            }
        }
        if d.kind() == "identifier" {
            out.insert(text(d, src).to_string());
        }
    }
}
