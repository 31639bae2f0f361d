//! Prints a kernel back to KPL text. `parse(print(k))` equals `k` up to spans and label
//! numbering (see [`Kernel::normalized`](crate::kpl::normalized)).

use crate::kpl::ast::*;
use std::fmt::Write;

/// KPL text for the kernel, with its header line when the geometry is known.
pub fn print(k: &Kernel) -> String {
    let mut out = String::new();
    let g = &k.geometry;
    let mut header = Vec::new();
    if let Some(b) = g.block_dim {
        header.push(format!("--blockDim={}", dims(b)));
    }
    if let Some(b) = g.grid_dim {
        header.push(format!("--gridDim={}", dims(b)));
    }
    if let Some(w) = g.warp_sync {
        header.push(format!("--warp-sync={w}"));
    }
    if !header.is_empty() {
        let _ = writeln!(out, "//{}", header.join(" "));
    }
    let _ = writeln!(out, "kernel {}({}) {{", k.name, k.params.join(", "));
    for a in &k.arrays {
        let ds: String =
            a.dims.iter().map(|d| format!("[{}]", d.map(|v| v.to_string()).unwrap_or_default())).collect();
        let _ = writeln!(out, "  {} {}{};", a.space, a.name, ds);
    }
    block_body(k, &k.body, 1, &mut out);
    out.push_str("}\n");
    out
}

fn dims(d: [u32; 3]) -> String {
    if d[1] == 1 && d[2] == 1 {
        d[0].to_string()
    } else if d[2] == 1 {
        format!("[{},{}]", d[0], d[1])
    } else {
        format!("[{},{},{}]", d[0], d[1], d[2])
    }
}

fn block_body(k: &Kernel, b: &Block, depth: usize, out: &mut String) {
    for s in &b.stmts {
        stmt(k, s, depth, out);
    }
}

fn label_prefix(k: &Kernel, l: Label) -> String {
    match k.label_names.get(l.0 as usize) {
        Some(n) if n.explicit => format!("@{} ", n.name),
        _ => String::new(),
    }
}

/// The first line of a statement in KPL syntax, without its label: the whole statement for a
/// simple one, `if (c) {` / `while (c) {` for a compound one.
pub fn statement_head(s: &Stmt) -> String {
    let idx = |index: &[Expr], width: &Width| {
        let last = index.len().saturating_sub(1);
        let sub = |k: usize, e: &Expr| match k == last && !width.is_one() {
            true => format!("[{} +: {}]", expr(e), width.get()),
            false => format!("[{}]", expr(e)),
        };
        index.iter().enumerate().map(|(k, e)| sub(k, e)).collect::<String>()
    };
    match &s.kind {
        StmtKind::Local { name, init: Some(e) } => format!("local {name} := {};", expr(e)),
        StmtKind::Local { name, init: None } => format!("local {name};"),
        StmtKind::Assign { name, value } => format!("{name} := {};", expr(value)),
        StmtKind::Read { dst, array, index, width } => format!("{dst} := rd {array}{};", idx(index, width)),
        StmtKind::Write { array, index, value, width, mode } => {
            let m = match mode {
                WriteMode::Plain => String::new(),
                m => format!("{} ", m.keyword()),
            };
            format!("{m}wr {array}{} := {};", idx(index, width), expr(value))
        }
        StmtKind::Atomic { dst, op, array, index, value, scope, width } => {
            let d = dst.as_ref().map(|d| format!("{d} := ")).unwrap_or_default();
            let s = if *scope == AtomicScope::Block { "block " } else { "" };
            format!("{d}atomic {s}{} {array}{}, {};", op.name(), idx(index, width), expr(value))
        }
        StmtKind::Barrier => "barrier;".to_string(),
        StmtKind::Syncwarp => "syncwarp;".to_string(),
        StmtKind::Gridsync => "gridsync;".to_string(),
        StmtKind::NamedWait { id, instance } => format!("bar wait {id}, {};", expr(instance)),
        StmtKind::NamedBarrier { id, count, wait } => {
            let how = if *wait { "sync" } else { "arrive" };
            match count {
                Some(n) => format!("bar {how} {id}, {n};"),
                None => format!("bar {how} {id};"),
            }
        }
        StmtKind::Commit => "commit;".to_string(),
        StmtKind::Wait { pending } => format!("wait {pending};"),
        StmtKind::WaitOldest => "wait oldest;".to_string(),
        StmtKind::Release => "release;".to_string(),
        StmtKind::Assume { cond } => format!("assume {};", expr(cond)),
        StmtKind::If { cond, .. } => format!("if ({}) {{", expr(cond)),
        StmtKind::While { cond, .. } => format!("while ({}) {{", expr(cond)),
    }
}

fn stmt(k: &Kernel, s: &Stmt, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    let _ = writeln!(out, "{pad}{}{}", label_prefix(k, s.label), statement_head(s));
    let close = |out: &mut String| {
        let _ = writeln!(out, "{pad}}}");
    };
    match &s.kind {
        StmtKind::If { then, els, .. } => {
            block_body(k, then, depth + 1, out);
            if let Some(e) = els {
                let _ = writeln!(out, "{pad}}} else {{");
                block_body(k, e, depth + 1, out);
            }
            close(out);
        }
        StmtKind::While { body, .. } => {
            block_body(k, body, depth + 1, out);
            close(out);
        }
        _ => {}
    }
}

/// An expression in KPL syntax with the fewest parentheses that keep its meaning.
pub fn expr(e: &Expr) -> String {
    prec_expr(e, 0)
}

fn prec_expr(e: &Expr, ctx: u8) -> String {
    match e {
        Expr::Const(v) => v.to_string(),
        Expr::Var(v) => v.clone(),
        Expr::Builtin(b) => builtin(*b),
        Expr::Unary(op, a) => {
            let sym = match op {
                UnOp::Neg => "-",
                UnOp::Not => "!",
                UnOp::BitNot => "~",
            };
            let inner = prec_expr(a, 12);
            // `- -x` must not print as `--x`.
            let sep = if inner.starts_with('-') { " " } else { "" };
            paren(format!("{sym}{sep}{inner}"), ctx > 12)
        }
        Expr::Binary(op, a, b) => match op.infix() {
            Some(sym) => {
                let p = op.precedence();
                paren(format!("{} {sym} {}", prec_expr(a, p), prec_expr(b, p + 1)), ctx > p)
            }
            None => format!("{}({}, {})", op.intrinsic().unwrap_or("?"), expr(a), expr(b)),
        },
        Expr::Select(c, a, b) => paren(format!("{} ? {} : {}", prec_expr(c, 1), expr(a), expr(b)), ctx > 0),
        Expr::Call(f, args) => format!("{f}({})", args.iter().map(expr).collect::<Vec<_>>().join(", ")),
    }
}

fn paren(s: String, needed: bool) -> String {
    if needed {
        format!("({s})")
    } else {
        s
    }
}

fn builtin(b: Builtin) -> String {
    let (name, d) = match b {
        Builtin::Tid(d) => ("tid", d),
        Builtin::Bid(d) => ("bid", d),
        Builtin::BlockDim(d) => ("bdim", d),
        Builtin::GridDim(d) => ("gdim", d),
    };
    format!("{name}.{}", d.name())
}
