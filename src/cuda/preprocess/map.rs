//! The source map from the preprocessed text back to the user's file, and the remapping of what
//! the lowering computed on the preprocessed text (spans, places, diagnostics).
//!
//! # Guarantees
//! - A verbatim region (user text, and directive or skipped lines blanked to spaces of the same
//!   length) maps byte for byte.
//! - A position strictly inside a macro expansion or an included file has no position of its own
//!   in the user's text: spans widen to the macro invocation (or the `#include` line), and a
//!   [`Place`] there becomes [`Place::Not`]. The two ends of a generated region map to the ends of
//!   its invocation: inserting text there is the same edit as inserting it before or after the
//!   invocation, so such places stay valid and land in the user's text.

use crate::diag::{line_col, Diagnostic};
use crate::kpl::ast::{Block, Kernel, Place, Span, StmtKind};

/// Where a piece of the preprocessed text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Verbatim text of the file starting at this byte.
    Verbatim(usize),
    /// The expansion of a macro invoked at `call` (the invocation, arguments included).
    Macro { call: Span, name: String, what: &'static str, defined: String },
    /// Text of an included file, inserted in place of the `#include` line `directive`; `at` is the
    /// origin within that file.
    Include { directive: Span, file: String, text: std::rc::Rc<str>, at: Box<Origin> },
}

/// One piece of the preprocessed text.
#[derive(Clone, Debug)]
pub(crate) struct Seg {
    pub out: usize,
    pub len: usize,
    pub origin: Origin,
}

/// Maps byte offsets of the preprocessed text to the user's file.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    pub(crate) segs: Vec<Seg>,
}

impl SourceMap {
    /// The piece holding position `p`: with `end_bias` the non-empty piece that ends at or
    /// contains `p` (for ends of ranges), else the one that starts at or contains `p`.
    fn seg(&self, p: usize, end_bias: bool) -> Option<&Seg> {
        // Pieces are sorted by `out` and do not overlap.
        if end_bias {
            let n = self.segs.partition_point(|s| s.out < p);
            self.segs[..n].iter().rev().find(|s| s.len > 0)
        } else {
            let n = self.segs.partition_point(|s| s.out + s.len <= p);
            self.segs[n..].iter().find(|s| s.len > 0)
        }
    }

    /// The user-text offset of preprocessed position `p`, or the origin it lies strictly inside.
    pub(crate) fn offset(&self, p: usize, end_bias: bool) -> Result<usize, &Origin> {
        let Some(s) = self.seg(p, end_bias) else {
            // Before the first or after the last piece: the ends of the text.
            return Ok(self.segs.last().filter(|_| p > 0).map(end_of).unwrap_or(0));
        };
        match &s.origin {
            Origin::Verbatim(src) => Ok(src + (p - s.out)),
            o => {
                let (a, b) = ends(o);
                if p == s.out {
                    Ok(a)
                } else if p == s.out + s.len {
                    Ok(b)
                } else {
                    Err(o)
                }
            }
        }
    }

    /// The smallest user-text span covering what `s` covers in the preprocessed text.
    pub fn span(&self, s: Span) -> Span {
        let start = self.offset(s.start, false).unwrap_or_else(|o| ends(o).0);
        let end =
            if s.end == s.start { start } else { self.offset(s.end, true).unwrap_or_else(|o| ends(o).1) };
        Span::new(start, end.max(start))
    }

    /// The generated region (a macro expansion or an included file) `s` starts in, or that its
    /// end falls strictly inside.
    fn inside(&self, s: Span) -> Option<&Origin> {
        let first = self.seg(s.start, false).map(|g| &g.origin).filter(|o| !matches!(o, Origin::Verbatim(_)));
        first.or_else(|| self.offset(s.end, true).err())
    }

    /// A place computed on the preprocessed text, in the user's text, or `Place::Not` when it
    /// would fall inside a macro expansion or an included file.
    pub fn place(&self, p: &Place) -> Place {
        match p {
            Place::Line { offset, indent } => match self.offset(*offset, true) {
                Ok(o) => Place::Line { offset: o, indent: indent.clone() },
                Err(o) => Place::Not(inside_reason(o)),
            },
            Place::Braced { body_start, body_end, indent, outer_indent } => {
                match (self.offset(*body_start, false), self.offset(*body_end, true)) {
                    (Ok(s), Ok(e)) => Place::Braced {
                        body_start: s,
                        body_end: e,
                        indent: indent.clone(),
                        outer_indent: outer_indent.clone(),
                    },
                    (Err(o), _) | (_, Err(o)) => Place::Not(inside_reason(o)),
                }
            }
            Place::Not(why) => Place::Not(why.clone()),
        }
    }

    /// Rewrites every span and place of a kernel lowered from the preprocessed text.
    pub fn kernel(&self, k: &mut Kernel) {
        fn block(m: &SourceMap, b: &mut Block) {
            b.span = m.span(b.span);
            for s in &mut b.stmts {
                s.span = m.span(s.span);
                match &mut s.kind {
                    StmtKind::If { then, els, .. } => {
                        block(m, then);
                        if let Some(e) = els {
                            block(m, e);
                        }
                    }
                    StmtKind::While { body, .. } => block(m, body),
                    _ => {}
                }
            }
        }
        // A statement whose end lies inside a generated region cannot have a barrier after it:
        // say why in the user's terms.
        let mut why = Vec::new();
        k.walk(&mut |s| {
            if let Err(o) = self.offset(s.span.end, true) {
                why.push((s.label, inside_reason(o)));
            }
        });
        for (l, reason) in why {
            if let Some(p) = k.places.get_mut(l.0 as usize) {
                if !p.is_placeable() {
                    *p = Place::Not(reason);
                }
            }
        }
        block(self, &mut k.body);
        for a in &mut k.arrays {
            a.span = self.span(a.span);
        }
        for p in &mut k.places {
            *p = self.place(p);
        }
    }

    /// A diagnostic about the preprocessed text, pointing into the user's text: inside a macro
    /// expansion it points at the invocation with a note naming the macro; inside an included
    /// file at the `#include` line with a note giving the position in that file.
    pub fn diagnostic(&self, mut d: Diagnostic) -> Diagnostic {
        if let Some(s) = d.span {
            if let Some(o) = self.inside(s) {
                d.notes.insert(0, origin_note(o));
            }
            d.span = Some(self.span(s));
        }
        for (s, _) in &mut d.secondary {
            *s = self.span(*s);
        }
        d
    }
}

fn end_of(s: &Seg) -> usize {
    match &s.origin {
        Origin::Verbatim(src) => src + s.len,
        o => ends(o).1,
    }
}

/// The user-text span a generated region stands for.
fn ends(o: &Origin) -> (usize, usize) {
    match o {
        Origin::Verbatim(s) => (*s, *s),
        Origin::Macro { call, .. } => (call.start, call.end),
        Origin::Include { directive, .. } => (directive.start, directive.end),
    }
}

fn inside_reason(o: &Origin) -> String {
    match o {
        Origin::Macro { name, what, .. } => format!("inside the expansion of {what} `{name}`"),
        Origin::Include { file, .. } => format!("inside the included file `{file}`"),
        Origin::Verbatim(_) => "in the user's text".into(),
    }
}

/// A note saying where generated text comes from.
pub(crate) fn origin_note(o: &Origin) -> String {
    match o {
        Origin::Macro { name, what, defined, .. } => {
            format!("in the expansion of {what} `{name}` (defined at {defined})")
        }
        Origin::Include { file, text, at, .. } => {
            let (pos, inner) = match &**at {
                Origin::Verbatim(p) => (*p, None),
                Origin::Macro { call, .. } => (call.start, Some(origin_note(at))),
                Origin::Include { directive, .. } => (directive.start, Some(origin_note(at))),
            };
            let (l, c) = line_col(text, pos);
            let mut n = format!("in `{file}:{l}:{c}`, included here");
            if let Some(i) = inner {
                n.push_str(&format!("; {i}"));
            }
            n
        }
        Origin::Verbatim(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ab` verbatim, a 5-byte expansion of `M(x)` (user bytes 2..6), then verbatim from 6.
    fn map() -> SourceMap {
        let m =
            Origin::Macro { call: Span::new(2, 6), name: "M".into(), what: "macro", defined: "1:1".into() };
        SourceMap {
            segs: vec![
                Seg { out: 0, len: 2, origin: Origin::Verbatim(0) },
                Seg { out: 2, len: 5, origin: m },
                Seg { out: 7, len: 3, origin: Origin::Verbatim(6) },
            ],
        }
    }

    #[test]
    fn ends_of_an_expansion_map_to_the_invocation_and_its_inside_does_not() {
        let m = map();
        assert_eq!(m.offset(1, false), Ok(1));
        assert_eq!(m.offset(2, false), Ok(2));
        assert_eq!(m.offset(7, true), Ok(6));
        assert_eq!(m.offset(8, false), Ok(7));
        assert!(m.offset(4, true).is_err());
        assert_eq!(m.span(Span::new(3, 9)), Span::new(2, 8));
        assert!(!m.place(&Place::Line { offset: 5, indent: String::new() }).is_placeable());
        assert_eq!(
            m.place(&Place::Line { offset: 7, indent: String::new() }),
            Place::Line { offset: 6, indent: String::new() }
        );
    }

    #[test]
    fn diagnostics_inside_an_expansion_point_at_the_invocation() {
        let d = map().diagnostic(Diagnostic::error("bad", Span::new(3, 4)));
        assert_eq!(d.span, Some(Span::new(2, 6)));
        assert!(d.notes[0].contains("macro `M`"), "{:?}", d.notes);
    }
}
