//! The counters of named barriers (`bar sync id, n;` / `bar arrive id, n;`).
//!
//! The oracle orders two threads' accesses through a named barrier by counting participations
//! (docs/semantics.md, "Named barriers"): every thread keeps, per barrier id, how often it has
//! joined the barrier (`__nbID_arrived`) and the instance its last waiting participation
//! completed (`__nbID_waited`). They are ordinary thread-local variables of the kernel, declared
//! `0` at its start and updated beside each named barrier statement (one more participation
//! before it; for a waiting one, that instance as the last waited for after it), so that every pass
//! that follows locals through branches and loops (closed-form counters, exit values, merges)
//! follows them too; nothing else assigns them.
//!
//! Invariant kept by [`add_counters`] and checked by it on kernels that already hold counters
//! (a printed kernel read back): the counter declarations are the first statements of the body,
//! in id order, each counter update sits directly beside its barrier statement, and no other
//! statement assigns a counter. Names starting with `__` are reserved in C and C++, so a CUDA
//! kernel never declares them; a KPL kernel that does is refused.

use super::ast::{BinOp, Block, Expr, Kernel, Place, Stmt, StmtKind};
use crate::span::Span;
use std::collections::BTreeSet;

/// The first id of barriers that are libcu++ barrier objects (counted by threads); PTX's named
/// barriers are `0..=15` (counted by warps).
pub const FIRST_OBJECT_ID: u32 = 16;

/// The counter of thread participations in barrier `id`.
pub fn arrived(id: u32) -> String {
    format!("__nb{id}_arrived")
}

/// The instance of barrier `id` the thread last waited for.
pub fn waited(id: u32) -> String {
    format!("__nb{id}_waited")
}

/// Whether `name` is a named barrier's counter.
pub fn is_counter(name: &str) -> bool {
    counter_id(name).is_some()
}

/// The barrier id of a counter's name.
pub fn counter_id(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("__nb")?;
    let digits = rest
        .strip_suffix("_arrived")
        .or_else(|| rest.strip_suffix("_unwaited"))
        .or_else(|| rest.strip_suffix("_waited"))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The ids of the named barriers of `k`, ascending.
pub fn ids(k: &Kernel) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    k.walk(&mut |s| {
        if let StmtKind::NamedBarrier { id, .. } | StmtKind::NamedWait { id, .. } = s.kind {
            out.insert(id);
        }
    });
    out
}

/// The participations in barrier `id` the thread did not wait at (`bar arrive`).
pub fn unwaited(id: u32) -> String {
    format!("__nb{id}_unwaited")
}

fn increment(name: String) -> StmtKind {
    StmtKind::Assign {
        name: name.clone(),
        value: Expr::Binary(BinOp::Add, Box::new(Expr::Var(name)), Box::new(Expr::Const(1))),
    }
}

/// The counter updates a named barrier statement has directly before and directly after it:
/// a participation counts before the statement (an arrival without a wait also as unwaited);
/// the instance waited for is recorded after it (the larger of the last one and this one, for a
/// `bar wait` of an older instance). Empty for any other statement.
pub fn updates(kind: &StmtKind) -> (Vec<StmtKind>, Vec<StmtKind>) {
    match kind {
        StmtKind::NamedBarrier { id, wait: true, .. } => (
            vec![increment(arrived(*id))],
            vec![StmtKind::Assign { name: waited(*id), value: Expr::Var(arrived(*id)) }],
        ),
        StmtKind::NamedBarrier { id, wait: false, .. } => {
            (vec![increment(arrived(*id)), increment(unwaited(*id))], Vec::new())
        }
        StmtKind::NamedWait { id, instance } => {
            let w = Expr::Var(waited(*id));
            let later = Expr::Binary(BinOp::ULt, Box::new(w.clone()), Box::new(instance.clone()));
            let value = Expr::Select(Box::new(later), Box::new(instance.clone()), Box::new(w));
            (Vec::new(), vec![StmtKind::Assign { name: waited(*id), value }])
        }
        _ => (Vec::new(), Vec::new()),
    }
}

/// Why a kernel's counters break the invariant (the statement's span, and what is wrong).
#[derive(Debug)]
pub struct CounterError {
    pub span: Span,
    pub message: String,
}

/// Gives every named barrier of `k` its counters (declarations at the start of the body,
/// updates before each barrier statement), keeping those already in place; labels of added
/// statements are fresh and not placeable. A kernel without named barriers is unchanged.
pub fn add_counters(k: &mut Kernel) -> Result<(), CounterError> {
    let ids = ids(k);
    // Declarations already at the start (a printed kernel read back).
    // Declarations already at the start (a printed kernel read back), possibly after barriers
    // placed at the body's start.
    let mut declared: Vec<String> = Vec::new();
    let mut skip = 0;
    for (i, s) in k.body.stmts.iter().enumerate() {
        match &s.kind {
            StmtKind::Local { name, init: Some(Expr::Const(0)) } if is_counter(name) => {
                declared.push(name.clone());
                skip = i + 1;
            }
            StmtKind::Barrier | StmtKind::Syncwarp | StmtKind::Gridsync => {}
            _ => break,
        }
    }
    let wanted: Vec<String> = ids.iter().flat_map(|&id| [arrived(id), waited(id), unwaited(id)]).collect();
    if !declared.is_empty() && declared != wanted {
        return Err(CounterError {
            span: k.body.stmts.first().map(|s| s.span).unwrap_or_default(),
            message: "the named barriers' counters are not declared as their barriers need".into(),
        });
    }
    let stmts = std::mem::take(&mut k.body.stmts);
    let mut body = Block { label: k.body.label, start: k.body.start, stmts, span: k.body.span };
    let result = fill_block(k, &mut body, skip);
    k.body.stmts = body.stmts;
    result?;
    if declared.is_empty() && !ids.is_empty() {
        let decls: Vec<Stmt> = wanted
            .iter()
            .map(|name| Stmt {
                label: k.fresh_label(format!("{name}:decl"), Place::Not("a named barrier's counter".into())),
                kind: StmtKind::Local { name: name.clone(), init: Some(Expr::Const(0)) },
                span: Span::default(),
            })
            .collect();
        k.body.stmts.splice(0..0, decls);
    }
    Ok(())
}

fn not_placeable() -> Place {
    Place::Not("beside a named barrier: its counter updates go with it".into())
}

/// Adds the missing updates in `b` (its first `skip` statements are the declarations), and
/// checks that no other statement assigns a counter.
fn fill_block(k: &mut Kernel, b: &mut Block, skip: usize) -> Result<(), CounterError> {
    // A barrier placed between a named barrier statement and its updates (a kernel printed
    // with barriers inserted at every label) does not separate them: they are still its own.
    let is_sync = |s: &Stmt| matches!(s.kind, StmtKind::Barrier | StmtKind::Syncwarp | StmtKind::Gridsync);
    let old = std::mem::take(&mut b.stmts);
    let mut out: Vec<Stmt> = Vec::with_capacity(old.len() + 4);
    // Indices into `out` of the updates that belong to a barrier statement beside them.
    let mut canonical = BTreeSet::new();
    let mut i = 0;
    while i < old.len() {
        let s = old[i].clone();
        i += 1;
        let (before, after) = updates(&s.kind);
        if before.is_empty() && after.is_empty() {
            out.push(s);
            continue;
        }
        let span = s.span;
        let tag = match s.kind {
            StmtKind::NamedBarrier { id, .. } | StmtKind::NamedWait { id, .. } => id,
            _ => 0,
        };
        let fresh = |k: &mut Kernel, kind: StmtKind| Stmt {
            label: k.fresh_label(format!("{tag}:nb"), not_placeable()),
            kind,
            span,
        };
        // The statements before it, barriers skipped, that would be its updates.
        let near: Vec<usize> =
            (skip..out.len()).rev().filter(|&j| !is_sync(&out[j])).take(before.len()).collect();
        let present = near.len() == before.len()
            && near.iter().rev().map(|&j| &out[j].kind).eq(before.iter())
            && near.iter().all(|j| !canonical.contains(j));
        if present {
            canonical.extend(near);
        } else {
            for kind in before {
                let update = fresh(k, kind);
                out.push(update);
                canonical.insert(out.len() - 1);
            }
        }
        let barrier = s.label;
        out.push(s);
        for kind in after {
            let mut next = i;
            while next < old.len() && is_sync(&old[next]) {
                next += 1;
            }
            let update = if next < old.len() && old[next].kind == kind {
                // Keep the barriers in between where they are, then the update.
                out.extend(old[i..next].iter().cloned());
                i = next + 1;
                old[next].clone()
            } else {
                fresh(k, kind)
            };
            // A barrier placed after the statement goes after its update, which keeps the
            // statement's place: the update stays directly beside the statement.
            let (b, u) = (barrier.0 as usize, update.label.0 as usize);
            if b < k.places.len() && u < k.places.len() && !matches!(k.places[b], Place::Not(_)) {
                k.places[u] = std::mem::replace(&mut k.places[b], not_placeable());
            }
            out.push(update);
            canonical.insert(out.len() - 1);
        }
    }
    b.stmts = out;
    for (j, s) in b.stmts.iter().enumerate().skip(skip) {
        let assigned = match &s.kind {
            StmtKind::Assign { name, .. } | StmtKind::Local { name, .. } => Some(name),
            StmtKind::Read { dst, .. } | StmtKind::Atomic { dst: Some(dst), .. } => Some(dst),
            _ => None,
        };
        if let Some(name) = assigned.filter(|n| is_counter(n) && !canonical.contains(&j)) {
            return Err(CounterError {
                span: s.span,
                message: format!("`{name}` is a named barrier's counter: only its barrier updates it"),
            });
        }
    }
    for s in b.stmts.iter_mut() {
        match &mut s.kind {
            StmtKind::If { then, els, .. } => {
                fill_block(k, then, 0)?;
                if let Some(e) = els {
                    fill_block(k, e, 0)?;
                }
            }
            StmtKind::While { body, .. } => fill_block(k, body, 0)?,
            _ => {}
        }
    }
    Ok(())
}
