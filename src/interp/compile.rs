//! Resolves a [`Kernel`] into a compact program: variables and arrays become dense indices, and
//! every malformed construct (undeclared variable, unknown array, wrong number of indices) is an
//! [`InterpError`] before anything runs.

use std::collections::HashMap;

use super::InterpError;
use crate::kpl::ast::{
    AtomicOp, AtomicScope, BinOp, Block, Builtin, Expr, Kernel, Label, Space, Stmt, StmtKind, UnOp, Width,
    WriteMode,
};
use crate::kpl::named;

/// A resolved expression.
#[derive(Debug)]
pub(crate) enum CExpr {
    Const(u32),
    Var(usize),
    Builtin(Builtin),
    Unary(UnOp, Box<CExpr>),
    Binary(BinOp, Box<CExpr>, Box<CExpr>),
    Select(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    /// Hash of the callee name (seed-independent) and the arguments.
    Call(u64, Vec<CExpr>),
}

/// A resolved memory access target.
#[derive(Debug)]
pub(crate) struct Target {
    pub array: usize,
    pub index: Vec<CExpr>,
    /// How many elements from the index on the access covers (KPL's `Width`).
    pub width: u32,
}

/// A resolved statement.
#[derive(Debug)]
pub(crate) enum CStmt {
    /// `Local` without initializer: no effect (the variable keeps its current value).
    Nop,
    /// `Local` with initializer, or `Assign`.
    Assign(usize, CExpr),
    Read(Label, usize, Target),
    /// The last field: a warp-collective store (`warp wr`).
    Write(Label, Target, CExpr, bool),
    /// An asynchronous copy's write (`async wr`): stored at once, in flight until a `wait`
    /// covers its group.
    AsyncWrite(Label, Target, CExpr),
    /// `commit`: closes the thread's group of copies.
    Commit,
    /// `wait n`: lands the copies of all but the `n` most recent committed groups.
    Wait(u32),
    /// `wait oldest`: lands the thread's copies of its first `releases + 1` groups.
    WaitOldest,
    /// `release`: one more of the thread's groups released.
    Release,
    /// The last field: atomic only between threads of one block (`AtomicScope::Block`).
    Atomic(Label, Option<usize>, AtomicOp, Target, CExpr, bool),
    Barrier(Label),
    /// A grid barrier (`gridsync`).
    Gridsync(Label),
    /// A warp barrier (`syncwarp`).
    Syncwarp(Label),
    /// `assume`: a thread reaching it with the condition 0 makes the run infeasible.
    Assume(Label, CExpr),
    /// `bar sync id, n` (`wait`) or `bar arrive id, n`: each enabled thread joins the instance
    /// its `__nbID_arrived` counter (just incremented) names. `slot` indexes
    /// [`Program::named`]; `count` is the statement's own count.
    NamedJoin {
        label: Label,
        slot: usize,
        count: Option<u32>,
        wait: bool,
    },
    /// `bar wait id, e`: each enabled thread waits for instance `e`.
    NamedWait {
        label: Label,
        slot: usize,
        instance: CExpr,
    },
    If(CExpr, Vec<CStmt>, Option<Vec<CStmt>>),
    While(Label, CExpr, Vec<CStmt>),
}

/// A resolved array.
#[derive(Debug)]
pub(crate) struct CArray {
    pub name: String,
    pub space: Space,
    pub dims: Vec<Option<u32>>,
    /// Row-major strides (the product of the later dimensions; unknown later dimensions are a
    /// malformed kernel and rejected).
    pub strides: Vec<u64>,
}

/// A resolved kernel.
#[derive(Debug)]
pub(crate) struct Program {
    /// Variable names by index; the first `params.len()` are the parameters.
    pub vars: Vec<String>,
    pub params: Vec<String>,
    pub arrays: Vec<CArray>,
    pub body: Vec<CStmt>,
    /// Warp-sync: threads whose linear ids agree divided by this size form a warp.
    pub warp_size: Option<u32>,
    /// The warp size `syncwarp` synchronizes (`warp_size`, else 32), and whether the kernel has
    /// a `syncwarp` at all.
    pub syncwarp_width: u32,
    pub has_syncwarp: bool,
    /// The named barrier ids of the kernel, ascending.
    pub named: Vec<NamedSlot>,
}

/// A named barrier id of the kernel (docs/semantics.md, "Named barriers") and what the
/// interpreter needs to know of its statements.
#[derive(Debug)]
pub(crate) struct NamedSlot {
    pub id: u32,
    /// The thread-local counters `__nbID_arrived` and `__nbID_waited` (variable indices).
    pub arrived: usize,
    pub waited: usize,
    /// The count of its first joining statement (`bar sync`/`bar arrive`) in program order
    /// (`None`: the whole block): the joins that complete an instance.
    pub count: Option<u32>,
    /// That first joining statement: where a count that does not match is reported.
    pub first: Option<Label>,
    /// Some statement waits at it (`bar sync`, `bar wait`); otherwise it orders nothing and
    /// nothing is checked of it.
    pub waits: bool,
}

struct Compiler<'k> {
    var_ids: HashMap<&'k str, usize>,
    vars: Vec<String>,
    array_ids: HashMap<&'k str, usize>,
    arrays: &'k [crate::kpl::ast::ArrayDecl],
    /// Current nesting of blocks and expressions (bounded, so that running cannot overflow the
    /// stack).
    depth: std::cell::Cell<usize>,
    /// The named barrier ids, in slot order.
    named: Vec<u32>,
}

pub(crate) use crate::limits::MAX_INTERP_DEPTH as MAX_DEPTH;

/// Resolves `kernel`. A variable must be a parameter or be declared by a `Local` statement that
/// precedes its use in program text (pre-order); locals share one flat namespace per thread.
pub(crate) fn compile(kernel: &Kernel) -> Result<Program, InterpError> {
    let mut c = Compiler {
        var_ids: HashMap::new(),
        vars: Vec::new(),
        array_ids: HashMap::new(),
        arrays: &kernel.arrays,
        depth: std::cell::Cell::new(0),
        named: Vec::new(),
    };
    let mut params = Vec::new();
    for p in &kernel.params {
        if !c.var_ids.contains_key(p.as_str()) {
            c.declare(p);
            params.push(p.clone());
        }
    }
    let mut arrays = Vec::new();
    for a in &kernel.arrays {
        if c.array_ids.contains_key(a.name.as_str()) {
            continue;
        }
        if a.dims.is_empty() || a.dims.iter().skip(1).any(Option::is_none) {
            return Err(InterpError::BadArray {
                array: a.name.clone(),
                reason: "every dimension but the first must have a known size".into(),
            });
        }
        let mut strides = vec![1u64; a.dims.len()];
        for k in (0..a.dims.len().saturating_sub(1)).rev() {
            let next = a.dims[k + 1].map_or(1, u64::from);
            strides[k] = strides[k + 1].saturating_mul(next);
        }
        c.array_ids.insert(&a.name, arrays.len());
        arrays.push(CArray { name: a.name.clone(), space: a.space, dims: a.dims.clone(), strides });
    }
    let mut slots: Vec<NamedSlot> = Vec::new();
    for id in named::ids(kernel) {
        let mut slot =
            NamedSlot { id, arrived: usize::MAX, waited: usize::MAX, count: None, first: None, waits: false };
        kernel.walk(&mut |s| match s.kind {
            StmtKind::NamedBarrier { id: i, count, wait } if i == id => {
                slot.waits |= wait;
                if slot.first.is_none() {
                    slot.first = Some(s.label);
                    slot.count = count;
                }
            }
            StmtKind::NamedWait { id: i, .. } if i == id => slot.waits = true,
            _ => {}
        });
        slots.push(slot);
    }
    c.named = slots.iter().map(|s| s.id).collect();
    let body = c.block(&kernel.body)?;
    for slot in &mut slots {
        // The counters are declared at the start of the body (`kpl::named::add_counters`).
        let at = slot.first.unwrap_or(Label::MAIN);
        slot.arrived = c.var(&named::arrived(slot.id), at)?;
        slot.waited = c.var(&named::waited(slot.id), at)?;
    }
    Ok(Program {
        vars: c.vars,
        params,
        arrays,
        body,
        warp_size: kernel.geometry.warp_sync,
        syncwarp_width: Kernel::syncwarp_width(&kernel.geometry),
        has_syncwarp: !kernel.syncwarps().is_empty(),
        named: slots,
    })
}

impl<'k> Compiler<'k> {
    fn declare(&mut self, name: &'k str) -> usize {
        if let Some(&id) = self.var_ids.get(name) {
            return id;
        }
        let id = self.vars.len();
        self.vars.push(name.to_string());
        self.var_ids.insert(name, id);
        id
    }

    /// The slot of named barrier `id` (every id of the kernel has one).
    fn slot(&self, id: u32) -> usize {
        self.named.iter().position(|&i| i == id).unwrap_or(0)
    }

    fn var(&self, name: &str, label: Label) -> Result<usize, InterpError> {
        self.var_ids
            .get(name)
            .copied()
            .ok_or_else(|| InterpError::UndeclaredVariable { name: name.to_string(), label })
    }

    /// Enters one level of nesting; fails beyond [`MAX_DEPTH`].
    fn enter(&self, label: Label) -> Result<(), InterpError> {
        let d = self.depth.get() + 1;
        if d > MAX_DEPTH {
            return Err(InterpError::TooDeep { label });
        }
        self.depth.set(d);
        Ok(())
    }

    fn leave(&self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }

    fn block(&mut self, b: &'k Block) -> Result<Vec<CStmt>, InterpError> {
        self.enter(b.label)?;
        let r = b.stmts.iter().map(|s| self.stmt(s)).collect();
        self.leave();
        r
    }

    fn target(&self, array: &str, index: &[Expr], width: Width, label: Label) -> Result<Target, InterpError> {
        let id = self
            .array_ids
            .get(array)
            .copied()
            .ok_or_else(|| InterpError::UnknownArray { name: array.to_string(), label })?;
        let expected = self.arrays.iter().find(|a| a.name == array).map_or(0, |a| a.dims.len());
        if index.len() != expected {
            return Err(InterpError::IndexArity {
                array: array.to_string(),
                label,
                expected,
                found: index.len(),
            });
        }
        let index = index.iter().map(|e| self.expr(e, label)).collect::<Result<_, _>>()?;
        Ok(Target { array: id, index, width: width.get() })
    }

    fn stmt(&mut self, s: &'k Stmt) -> Result<CStmt, InterpError> {
        let l = s.label;
        Ok(match &s.kind {
            StmtKind::Local { name, init } => {
                // The initializer is evaluated before the name is in scope.
                let init = init.as_ref().map(|e| self.expr(e, l)).transpose()?;
                let v = self.declare(name);
                match init {
                    Some(e) => CStmt::Assign(v, e),
                    None => CStmt::Nop,
                }
            }
            StmtKind::Assign { name, value } => {
                let value = self.expr(value, l)?;
                CStmt::Assign(self.var(name, l)?, value)
            }
            StmtKind::Read { dst, array, index, width } => {
                let t = self.target(array, index, *width, l)?;
                CStmt::Read(l, self.var(dst, l)?, t)
            }
            StmtKind::Write { array, index, value, width, mode } => {
                let t = self.target(array, index, *width, l)?;
                let v = self.expr(value, l)?;
                match mode {
                    WriteMode::Async => CStmt::AsyncWrite(l, t, v),
                    WriteMode::Plain => CStmt::Write(l, t, v, false),
                    WriteMode::Warp => CStmt::Write(l, t, v, true),
                }
            }
            StmtKind::Commit => CStmt::Commit,
            StmtKind::Wait { pending } => CStmt::Wait(*pending),
            StmtKind::WaitOldest => CStmt::WaitOldest,
            StmtKind::Release => CStmt::Release,
            StmtKind::Atomic { dst, op, array, index, value, scope, width } => {
                let t = self.target(array, index, *width, l)?;
                let v = self.expr(value, l)?;
                let d = dst.as_ref().map(|d| self.var(d, l)).transpose()?;
                CStmt::Atomic(l, d, *op, t, v, *scope == AtomicScope::Block)
            }
            StmtKind::Barrier => CStmt::Barrier(l),
            StmtKind::Gridsync => CStmt::Gridsync(l),
            StmtKind::Syncwarp => CStmt::Syncwarp(l),
            StmtKind::NamedBarrier { id, count, wait } => {
                CStmt::NamedJoin { label: l, slot: self.slot(*id), count: *count, wait: *wait }
            }
            StmtKind::NamedWait { id, instance } => {
                let instance = self.expr(instance, l)?;
                CStmt::NamedWait { label: l, slot: self.slot(*id), instance }
            }
            StmtKind::Assume { cond } => CStmt::Assume(l, self.expr(cond, l)?),
            StmtKind::If { cond, then, els } => {
                let c = self.expr(cond, l)?;
                let t = self.block(then)?;
                let e = els.as_ref().map(|e| self.block(e)).transpose()?;
                CStmt::If(c, t, e)
            }
            StmtKind::While { cond, body } => {
                let c = self.expr(cond, l)?;
                CStmt::While(l, c, self.block(body)?)
            }
        })
    }

    fn expr(&self, e: &Expr, label: Label) -> Result<CExpr, InterpError> {
        self.enter(label)?;
        let r = self.expr_inner(e, label);
        self.leave();
        r
    }

    fn expr_inner(&self, e: &Expr, label: Label) -> Result<CExpr, InterpError> {
        Ok(match e {
            Expr::Const(c) => CExpr::Const(*c),
            Expr::Var(v) => CExpr::Var(self.var(v, label)?),
            Expr::Builtin(b) => CExpr::Builtin(*b),
            Expr::Unary(op, a) => CExpr::Unary(*op, Box::new(self.expr(a, label)?)),
            Expr::Binary(op, a, b) => {
                CExpr::Binary(*op, Box::new(self.expr(a, label)?), Box::new(self.expr(b, label)?))
            }
            Expr::Select(c, a, b) => CExpr::Select(
                Box::new(self.expr(c, label)?),
                Box::new(self.expr(a, label)?),
                Box::new(self.expr(b, label)?),
            ),
            Expr::Call(name, args) => CExpr::Call(
                super::value::hash_str(name),
                args.iter().map(|a| self.expr(a, label)).collect::<Result<_, _>>()?,
            ),
        })
    }
}
