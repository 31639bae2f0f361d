//! Display names for labels, derived from source lines the way the AutoSync paper writes them:
//! a simple statement is named by its line (`3`), a compound one by its line span (`2:4`), a
//! block's start node by the block's name plus `s` (`2:4s`), the top-level block `main`.

use crate::diag::LineIndex;
use crate::kpl::ast::{Block, Kernel, Label, LabelName, StmtKind};
use std::collections::HashSet;

/// Gives every label that has no explicit (`@name`) name a line-based name. Names stay unique:
/// a clash gets a suffix `.2`, `.3`, … in program order. Spans must point into `source`.
pub fn assign_default_names(kernel: &mut Kernel, source: &str) {
    let index = LineIndex::new(source);
    let line = |offset: usize| index.line(offset);
    let last_line = |start: usize, end: usize| line(end.saturating_sub(1).max(start));
    // Statement and block labels first, then start nodes named after their (final) block names.
    let mut proposals: Vec<(Label, String)> = Vec::new();
    let mut starts: Vec<(Label, Label)> = vec![(kernel.body.start, kernel.body.label)];
    fn block(
        b: &Block,
        line: &dyn Fn(usize) -> usize,
        last_line: &dyn Fn(usize, usize) -> usize,
        out: &mut Vec<(Label, String)>,
        starts: &mut Vec<(Label, Label)>,
    ) {
        for s in &b.stmts {
            let first = line(s.span.start);
            match &s.kind {
                StmtKind::If { then, els, .. } => {
                    out.push((s.label, format!("{first}:{}", last_line(then.span.start, then.span.end))));
                    starts.push((then.start, then.label));
                    block(then, line, last_line, out, starts);
                    if let Some(e) = els {
                        let z = last_line(e.span.start, e.span.end);
                        out.push((e.label, format!("{}:{z}", line(e.span.start))));
                        starts.push((e.start, e.label));
                        block(e, line, last_line, out, starts);
                    }
                }
                StmtKind::While { body, .. } => {
                    out.push((s.label, format!("{first}:{}", last_line(s.span.start, s.span.end))));
                    starts.push((body.start, body.label));
                    block(body, line, last_line, out, starts);
                }
                _ => out.push((s.label, first.to_string())),
            }
        }
    }
    block(&kernel.body, &line, &last_line, &mut proposals, &mut starts);
    let names = &mut kernel.label_names;
    if let Some(main) = names.get_mut(0) {
        *main = LabelName { name: "main".into(), explicit: false };
    }
    let mut used: HashSet<String> = names.iter().filter(|n| n.explicit).map(|n| n.name.clone()).collect();
    used.insert("main".into());
    let mut give = |names: &mut Vec<LabelName>, l: Label, base: String| {
        let Some(entry) = names.get_mut(l.0 as usize) else { return };
        if entry.explicit {
            return;
        }
        let mut name = base.clone();
        let mut n = 2;
        while used.contains(&name) {
            name = format!("{base}.{n}");
            n += 1;
        }
        used.insert(name.clone());
        entry.name = name;
    };
    for (l, proposal) in proposals {
        give(names, l, proposal);
    }
    for (start, blk) in starts {
        let base = format!("{}s", names.get(blk.0 as usize).map(|n| n.name.as_str()).unwrap_or("?"));
        give(names, start, base);
    }
}
