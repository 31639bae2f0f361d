//! KPL, the kernel core language (AutoSync Fig. 8, extended as DESIGN.md §3 says): its AST, a
//! parser with diagnostics, a printer that round-trips, and the label tree.
//!
//! Surface syntax: docs/kpl.md.

pub mod ast;
pub mod header;
mod lexer;
pub mod named;
pub mod names;
mod parser;
mod pending;
pub mod printer;
pub mod source_array;
pub mod tree;

pub use ast::*;
pub use header::parse_header;
pub use names::assign_default_names;
pub use parser::{is_keyword, parse};
pub use pending::{Context as FlightContext, CopyFlights, MAX_ITERATIONS_APART};
pub use printer::print;
pub use source_array::SourceArray;
pub use tree::{LabelTree, NodeKind};

/// The kernel with spans, source places and derived names cleared and labels renumbered in the
/// order the parser allocates them, so that two kernels with the same structure compare equal
/// (`normalized(&parse(&print(k))?) == normalized(k)`).
pub fn normalized(k: &Kernel) -> Kernel {
    let mut names = Vec::new();
    let mut fresh = |old: Label, k: &Kernel| {
        let l = Label(names.len() as u32);
        let n = k.label_names.get(old.0 as usize).filter(|n| n.explicit).cloned();
        names.push(n.unwrap_or(LabelName { name: String::new(), explicit: false }));
        l
    };
    fn block(b: &Block, k: &Kernel, label: Label, fresh: &mut dyn FnMut(Label, &Kernel) -> Label) -> Block {
        let start = fresh(b.start, k);
        let stmts = b
            .stmts
            .iter()
            .map(|s| {
                let l = fresh(s.label, k);
                let kind = match &s.kind {
                    StmtKind::If { cond, then, els } => {
                        let then = block(then, k, l, fresh);
                        let els = els.as_ref().map(|e| {
                            let el = fresh(e.label, k);
                            block(e, k, el, fresh)
                        });
                        StmtKind::If { cond: cond.clone(), then, els }
                    }
                    StmtKind::While { cond, body } => {
                        StmtKind::While { cond: cond.clone(), body: block(body, k, l, fresh) }
                    }
                    other => other.clone(),
                };
                Stmt { label: l, kind, span: Span::default() }
            })
            .collect();
        Block { label, start, stmts, span: Span::default() }
    }
    let main = fresh(Label::MAIN, k);
    let body = block(&k.body, k, main, &mut fresh);
    let arrays = k.arrays.iter().map(|a| ArrayDecl { span: Span::default(), ..a.clone() }).collect();
    Kernel {
        name: k.name.clone(),
        params: k.params.clone(),
        arrays,
        body,
        geometry: k.geometry.clone(),
        places: Vec::new(),
        label_names: names,
        flag_guards: Default::default(),
        launch_facts: Vec::new(),
        source_arrays: Default::default(),
        fn_pointers: Default::default(),
        source_params: Default::default(),
        file: None,
        dynamic_shared: None,
        param_arrays: Default::default(),
        barrier_names: Default::default(),
    }
}
