//! Recursive-descent parser for the KPL surface syntax (docs/kpl.md).
//!
//! Labels are allocated densely in program order: `main` is 0, then every block's start node
//! before its statements, every statement before its sub-blocks, a then block before its else
//! block. Every error is a [`Diagnostic`] pointing at the offending token; no input panics.

use crate::diag::Diagnostic;
use crate::kpl::ast::*;
use crate::kpl::lexer::{lex, Tok};
use std::collections::HashSet;

use crate::limits::MAX_KPL_PARSE_DEPTH as MAX_DEPTH;

/// Most binary operators in one statement. A flat chain `a + b + … + z` nests its AST one level
/// per operator without nesting the parser, and every later recursive pass over the expression
/// (printing, cloning, dropping) would overflow the stack on a chain of 100 000 terms.
const MAX_EXPR_OPS: usize = 1000;

/// The widest access KPL writes (`A[i +: 64]`); a front end's widest is a double over bytes (8).
const MAX_WIDTH: u64 = 64;

struct Parser<'s> {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    next_label: u32,
    names: Vec<LabelName>,
    depth: usize,
    /// Binary operators parsed so far in the current statement (see [`MAX_EXPR_OPS`]).
    ops: usize,
    /// Variables in scope (parameters and locals declared so far).
    vars: HashSet<String>,
    arrays: Vec<ArrayDecl>,
    src: &'s str,
}

/// Parses one KPL kernel (plus its optional header comment). Label names are derived from line
/// numbers unless given explicitly with `@name`.
pub fn parse(src: &str) -> Result<Kernel, Diagnostic> {
    let geometry = crate::kpl::header::parse_header(src)?;
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        next_label: 0,
        names: Vec::new(),
        depth: 0,
        ops: 0,
        vars: HashSet::new(),
        arrays: Vec::new(),
        src,
    };
    let mut kernel = p.kernel()?;
    kernel.geometry = geometry;
    crate::kpl::named::add_counters(&mut kernel).map_err(|e| Diagnostic::error(e.message, e.span))?;
    crate::kpl::names::assign_default_names(&mut kernel, src);
    Ok(kernel)
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].0
    }
    fn span(&self) -> Span {
        self.toks[self.pos.min(self.toks.len() - 1)].1
    }
    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1).min(self.toks.len() - 1)].1
    }
    fn bump(&mut self) -> (Tok, Span) {
        let t = self.toks[self.pos.min(self.toks.len() - 1)].clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == kw)
    }
    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn error_here(&self, expected: &str) -> Diagnostic {
        Diagnostic::error(format!("expected {expected}, found {}", self.peek().describe()), self.span())
            .with_label(format!("expected {expected}"))
    }
    fn expect(&mut self, p: &str) -> Result<Span, Diagnostic> {
        if self.is(p) {
            Ok(self.bump().1)
        } else {
            Err(self.error_here(&format!("`{p}`")))
        }
    }
    fn ident(&mut self, what: &str) -> Result<(String, Span), Diagnostic> {
        match self.peek().clone() {
            Tok::Ident(s) if !is_keyword(&s) => {
                let sp = self.bump().1;
                Ok((s, sp))
            }
            _ => Err(self.error_here(what)),
        }
    }
    fn label(&mut self, explicit: Option<String>) -> Label {
        let l = Label(self.next_label);
        self.next_label += 1;
        self.names
            .push(LabelName { name: explicit.clone().unwrap_or_default(), explicit: explicit.is_some() });
        l
    }
    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error("nesting too deep", self.span())
                .with_label(format!("more than {MAX_DEPTH} nested blocks or parentheses")));
        }
        Ok(())
    }

    fn kernel(&mut self) -> Result<Kernel, Diagnostic> {
        if !self.is_kw("kernel") {
            return Err(self
                .error_here("`kernel`")
                .with_note("a KPL file holds one `kernel NAME(PARAMS) { ... }`"));
        }
        self.bump();
        let (name, _) = self.ident("a kernel name")?;
        self.expect("(")?;
        let mut params = Vec::new();
        if !self.is(")") {
            loop {
                let (p, sp) = self.ident("a parameter name")?;
                if !self.vars.insert(p.clone()) {
                    return Err(Diagnostic::error(format!("parameter `{p}` declared twice"), sp));
                }
                params.push(p);
                if !self.eat(",") {
                    break;
                }
            }
        }
        self.expect(")")?;
        let open = self.expect("{")?;
        let main = self.label(Some("main".into()));
        self.names[main.0 as usize].explicit = false;
        let start = self.label(None);
        while self.is_kw("shared") || self.is_kw("global") {
            self.array_decl()?;
        }
        let stmts = self.stmts()?;
        let close = self.expect("}")?;
        if *self.peek() != Tok::Eof {
            return Err(self.error_here("end of file").with_note("a KPL file holds exactly one kernel"));
        }
        let places = vec![Place::Not(String::new()); self.names.len()];
        let mut k = Kernel {
            name,
            params,
            arrays: std::mem::take(&mut self.arrays),
            body: Block { label: main, start, stmts, span: open.to(close) },
            geometry: Geometry::default(),
            label_names: std::mem::take(&mut self.names),
            places,
            flag_guards: Default::default(),
            launch_facts: Vec::new(),
            source_arrays: Default::default(),
            fn_pointers: Default::default(),
            source_params: Default::default(),
            file: None,
            dynamic_shared: None,
            param_arrays: Default::default(),
            barrier_names: Default::default(),
        };
        compute_places(&mut k, self.src);
        Ok(k)
    }

    fn array_decl(&mut self) -> Result<(), Diagnostic> {
        let (kw, kw_span) = match self.bump() {
            (Tok::Ident(s), sp) => (s, sp),
            (_, sp) => return Err(Diagnostic::error("expected `shared` or `global`", sp)),
        };
        let space = if kw == "shared" { Space::Shared } else { Space::Global };
        let (name, name_span) = self.ident("an array name")?;
        if self.arrays.iter().any(|a| a.name == name) || self.vars.contains(&name) {
            return Err(Diagnostic::error(format!("`{name}` is declared twice"), name_span));
        }
        let mut dims = Vec::new();
        while self.eat("[") {
            if self.is("]") {
                dims.push(None);
            } else {
                match self.bump() {
                    (Tok::Int(v), _) if v > 0 => dims.push(Some(v as u32)),
                    (_, sp) => {
                        return Err(Diagnostic::error("expected a positive array size", sp)
                            .with_label("array sizes are integer constants"))
                    }
                }
            }
            self.expect("]")?;
        }
        if dims.is_empty() {
            return Err(self
                .error_here("`[`")
                .with_note("arrays need at least one dimension: `shared A[64];`"));
        }
        if dims.iter().skip(1).any(Option::is_none)
            || (space == Space::Shared && dims[0].is_none() && dims.len() > 1)
        {
            return Err(Diagnostic::error(
                "only the first dimension of an array may be left open",
                name_span,
            )
            .with_note("inner dimensions are needed to linearize multi-dimensional indices"));
        }
        let end = self.expect(";")?;
        self.arrays.push(ArrayDecl { name, space, dims, span: kw_span.to(end) });
        Ok(())
    }

    fn stmts(&mut self) -> Result<Vec<Stmt>, Diagnostic> {
        let mut out = Vec::new();
        while !self.is("}") && *self.peek() != Tok::Eof {
            if self.is_kw("shared") || self.is_kw("global") {
                return Err(Diagnostic::error(
                    "array declarations must come first in the kernel body",
                    self.span(),
                ));
            }
            out.push(self.stmt()?);
        }
        Ok(out)
    }

    fn block(&mut self, label: Label) -> Result<Block, Diagnostic> {
        self.enter()?;
        let open = self.expect("{")?;
        let start = self.label(None);
        let scope = self.vars.clone();
        let stmts = self.stmts()?;
        let close = self.expect("}")?;
        self.vars = scope;
        self.depth -= 1;
        Ok(Block { label, start, stmts, span: open.to(close) })
    }

    fn stmt(&mut self) -> Result<Stmt, Diagnostic> {
        self.ops = 0;
        let explicit = match self.peek().clone() {
            Tok::Label(l) => {
                let sp = self.bump().1;
                if self.names.iter().any(|n| n.explicit && n.name == l) || l == "main" {
                    return Err(Diagnostic::error(format!("label `@{l}` is used twice"), sp));
                }
                Some(l)
            }
            _ => None,
        };
        let first = self.span();
        let label = self.label(explicit);
        let kind = match self.peek().clone() {
            Tok::Ident(kw) if kw == "local" => {
                self.bump();
                let (name, sp) = self.ident("a variable name")?;
                if self.vars.contains(&name) || self.arrays.iter().any(|a| a.name == name) {
                    return Err(Diagnostic::error(format!("`{name}` is already declared"), sp)
                        .with_note("KPL has one namespace for parameters, locals and arrays"));
                }
                let init = if self.eat(":=") { Some(self.expr()?) } else { None };
                self.expect(";")?;
                self.vars.insert(name.clone());
                StmtKind::Local { name, init }
            }
            Tok::Ident(kw) if kw == "barrier" => {
                self.bump();
                self.expect(";")?;
                StmtKind::Barrier
            }
            Tok::Ident(kw) if kw == "syncwarp" => {
                self.bump();
                self.expect(";")?;
                StmtKind::Syncwarp
            }
            Tok::Ident(kw) if kw == "gridsync" => {
                self.bump();
                self.expect(";")?;
                StmtKind::Gridsync
            }
            Tok::Ident(kw) if kw == "assume" => {
                self.bump();
                let cond = self.expr()?;
                self.expect(";")?;
                StmtKind::Assume { cond }
            }
            Tok::Ident(kw) if kw == "wr" || kw == "async" || kw == "warp" => {
                let mode = match kw.as_str() {
                    "async" => WriteMode::Async,
                    "warp" => WriteMode::Warp,
                    _ => WriteMode::Plain,
                };
                self.bump();
                if mode != WriteMode::Plain {
                    if !matches!(self.peek(), Tok::Ident(w) if w == "wr") {
                        return Err(self.error_here(&format!(
                            "`wr` after `{}` (`{} wr A[i] := v;`)",
                            mode.keyword(),
                            mode.keyword()
                        )));
                    }
                    self.bump();
                }
                let (array, index, width) = self.access()?;
                self.expect(":=")?;
                let value = self.expr()?;
                self.expect(";")?;
                StmtKind::Write { array, index, value, width, mode }
            }
            Tok::Ident(kw)
                if kw == "bar"
                    && matches!(self.toks.get(self.pos + 1), Some((Tok::Ident(h), _)) if h == "sync" || h == "arrive" || h == "wait") =>
            {
                self.bump();
                let how = match self.bump() {
                    (Tok::Ident(h), _) => h,
                    _ => String::new(),
                };
                let wait = how == "sync";
                let id = match self.bump() {
                    (Tok::Int(n), _) if n <= MAX_NAMED_BARRIER_ID as u64 => n as u32,
                    (_, sp) => {
                        return Err(Diagnostic::error(
                            format!("expected a named barrier's id, 0 to {MAX_NAMED_BARRIER_ID}"),
                            sp,
                        )
                        .with_note("`bar sync 1, 128;` waits at barrier 1 until 128 threads have joined it"))
                    }
                };
                let count = if how == "wait" {
                    None
                } else if self.eat(",") {
                    match self.bump() {
                        (Tok::Int(n), _) if n > 0 && n <= u32::MAX as u64 => Some(n as u32),
                        (_, sp) => {
                            return Err(Diagnostic::error(
                                "expected the number of threads the barrier waits for",
                                sp,
                            ))
                        }
                    }
                } else {
                    None
                };
                if how == "wait" {
                    self.expect(",")?;
                    let instance = self.expr()?;
                    self.expect(";")?;
                    StmtKind::NamedWait { id, instance }
                } else {
                    self.expect(";")?;
                    StmtKind::NamedBarrier { id, count, wait }
                }
            }
            Tok::Ident(kw) if kw == "commit" => {
                self.bump();
                self.expect(";")?;
                StmtKind::Commit
            }
            Tok::Ident(kw) if kw == "release" => {
                self.bump();
                self.expect(";")?;
                StmtKind::Release
            }
            Tok::Ident(kw) if kw == "wait" => {
                self.bump();
                let pending = match self.bump() {
                    (Tok::Ident(w), _) if w == "oldest" => None,
                    (Tok::Int(n), _) if n <= MAX_WAIT_PENDING as u64 => Some(n as u32),
                    (_, sp) => {
                        return Err(Diagnostic::error(
                            format!("expected the number of groups left in flight, 0 to {MAX_WAIT_PENDING}"),
                            sp,
                        )
                        .with_note("`wait 1;` waits until at most one committed group is in flight; `wait oldest;` until the oldest group not released has landed"))
                    }
                };
                self.expect(";")?;
                match pending {
                    Some(pending) => StmtKind::Wait { pending },
                    None => StmtKind::WaitOldest,
                }
            }
            Tok::Ident(kw) if kw == "atomic" => self.atomic(None)?,
            Tok::Ident(kw) if kw == "if" => self.if_stmt(label)?,
            Tok::Ident(kw) if kw == "while" => {
                self.bump();
                self.expect("(")?;
                let cond = self.expr()?;
                self.expect(")")?;
                let body = self.block(label)?;
                StmtKind::While { cond, body }
            }
            Tok::Ident(_) => {
                let (name, sp) = self.ident("a statement")?;
                self.check_var(&name, sp)?;
                self.expect(":=")?;
                if self.is_kw("rd") {
                    self.bump();
                    let (array, index, width) = self.access()?;
                    self.expect(";")?;
                    StmtKind::Read { dst: name, array, index, width }
                } else if self.is_kw("atomic") {
                    self.atomic(Some(name))?
                } else {
                    let value = self.expr()?;
                    self.expect(";")?;
                    StmtKind::Assign { name, value }
                }
            }
            _ => return Err(self.error_here("a statement")),
        };
        Ok(Stmt { label, kind, span: first.to(self.prev_span()) })
    }

    fn if_stmt(&mut self, label: Label) -> Result<StmtKind, Diagnostic> {
        self.bump();
        self.expect("(")?;
        let cond = self.expr()?;
        self.expect(")")?;
        let then = self.block(label)?;
        let els = if self.is_kw("else") {
            let else_span = self.bump().1;
            let else_label = self.label(None);
            if self.is_kw("if") {
                // `else if`: an else block holding one if statement.
                self.enter()?;
                let start = self.label(None);
                let inner_first = self.span();
                let inner_label = self.label(None);
                let inner = self.if_stmt(inner_label)?;
                self.depth -= 1;
                let span = inner_first.to(self.prev_span());
                Some(Block {
                    label: else_label,
                    start,
                    stmts: vec![Stmt { label: inner_label, kind: inner, span }],
                    span: else_span.to(span),
                })
            } else {
                Some(self.block(else_label)?)
            }
        } else {
            None
        };
        Ok(StmtKind::If { cond, then, els })
    }

    fn atomic(&mut self, dst: Option<String>) -> Result<StmtKind, Diagnostic> {
        self.bump();
        // `atomic block add …`: `block` is never an operation's name, so no keyword is needed.
        let scope = if self.is_kw("block") {
            self.bump();
            AtomicScope::Block
        } else {
            AtomicScope::Device
        };
        let (opname, sp) = match self.bump() {
            (Tok::Ident(s), sp) => (s, sp),
            (_, sp) => return Err(Diagnostic::error("expected an atomic operation", sp)),
        };
        let op = AtomicOp::from_name(&opname).ok_or_else(|| {
            Diagnostic::error(format!("unknown atomic operation `{opname}`"), sp)
                .with_note("atomics: add, sub, min, max, and, or, xor, exch, inc, dec")
        })?;
        let (array, index, width) = self.access()?;
        self.expect(",")?;
        let value = self.expr()?;
        self.expect(";")?;
        Ok(StmtKind::Atomic { dst, op, array, index, value, scope, width })
    }

    /// `A[i][j]`, or `A[i][j +: w]`: `w` elements from `j` on (a wider view, [`Width`]).
    fn access(&mut self) -> Result<(String, Vec<Expr>, Width), Diagnostic> {
        let (array, sp) = self.ident("an array name")?;
        let decl = match self.arrays.iter().find(|a| a.name == array) {
            Some(d) => d.clone(),
            None => {
                return Err(Diagnostic::error(format!("unknown array `{array}`"), sp)
                    .with_note("declare arrays first: `shared A[64];` or `global B[];`"))
            }
        };
        let mut index = Vec::new();
        let mut width = Width::ONE;
        while self.eat("[") {
            index.push(self.expr()?);
            if !width.is_one() {
                return Err(Diagnostic::error(
                    "a width `+: w` goes in the last subscript only",
                    self.prev_span(),
                ));
            }
            if self.eat("+:") {
                width = match self.bump() {
                    (Tok::Int(w), _) if (1..=MAX_WIDTH).contains(&w) => Width(w as u32),
                    (_, wsp) => {
                        return Err(Diagnostic::error("expected a width from 1 to 64", wsp)
                            .with_note("`A[i +: 4]` is the 4 elements A[i], …, A[i + 3]"))
                    }
                };
            }
            self.expect("]")?;
        }
        if index.len() != decl.dims.len() {
            return Err(Diagnostic::error(
                format!("`{array}` has {} dimension(s) but is indexed with {}", decl.dims.len(), index.len()),
                sp.to(self.prev_span()),
            ));
        }
        Ok((array, index, width))
    }

    fn check_var(&self, name: &str, sp: Span) -> Result<(), Diagnostic> {
        // A named barrier's counter is declared for the kernel after parsing (`kpl::named`).
        if self.vars.contains(name) || crate::kpl::named::is_counter(name) {
            Ok(())
        } else if self.arrays.iter().any(|a| a.name == name) {
            Err(Diagnostic::error(format!("`{name}` is an array"), sp)
                .with_note("arrays are accessed with `x := rd A[i];` and `wr A[i] := e;`"))
        } else {
            Err(Diagnostic::error(format!("unknown variable `{name}`"), sp)
                .with_note("declare it first with `local NAME;`"))
        }
    }

    fn expr(&mut self) -> Result<Expr, Diagnostic> {
        self.enter()?;
        let cond = self.binary(1)?;
        let e = if self.eat("?") {
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr()?;
            Expr::Select(Box::new(cond), Box::new(a), Box::new(b))
        } else {
            cond
        };
        self.depth -= 1;
        Ok(e)
    }

    fn binary(&mut self, min_prec: u8) -> Result<Expr, Diagnostic> {
        let mut lhs = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Punct(p) => infix_op(p),
                _ => None,
            };
            let Some(op) = op else { break };
            let prec = op.precedence();
            if prec < min_prec {
                break;
            }
            self.ops += 1;
            if self.ops > MAX_EXPR_OPS {
                return Err(Diagnostic::error("expression too large", self.span())
                    .with_label(format!("more than {MAX_EXPR_OPS} operators in one statement"))
                    .with_note("split the computation over several assignments"));
            }
            self.bump();
            let rhs = self.binary(prec + 1)?;
            lhs = Expr::bin(op, lhs, rhs);
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr, Diagnostic> {
        let op = if self.is("-") {
            Some(UnOp::Neg)
        } else if self.is("!") {
            Some(UnOp::Not)
        } else if self.is("~") {
            Some(UnOp::BitNot)
        } else {
            None
        };
        match op {
            Some(op) => {
                self.bump();
                self.enter()?;
                let e = self.unary()?;
                self.depth -= 1;
                Ok(Expr::Unary(op, Box::new(e)))
            }
            None => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<Expr, Diagnostic> {
        match self.peek().clone() {
            Tok::Int(v) => {
                self.bump();
                Ok(Expr::Const(v as u32))
            }
            Tok::Punct("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Ident(name) => {
                let sp = self.bump().1;
                if let Some(b) = self.builtin(&name)? {
                    return Ok(Expr::Builtin(b));
                }
                if self.is("(") {
                    self.bump();
                    let mut args = Vec::new();
                    if !self.is(")") {
                        loop {
                            args.push(self.expr()?);
                            if !self.eat(",") {
                                break;
                            }
                        }
                    }
                    self.expect(")")?;
                    if let Some(op) = BinOp::from_intrinsic(&name) {
                        let [a, b]: [Expr; 2] = args
                            .try_into()
                            .map_err(|_| Diagnostic::error(format!("`{name}` takes two arguments"), sp))?;
                        return Ok(Expr::bin(op, a, b));
                    }
                    if is_keyword(&name) {
                        return Err(Diagnostic::error(format!("`{name}` is a keyword, not a function"), sp));
                    }
                    return Ok(Expr::Call(name, args));
                }
                if is_keyword(&name) {
                    return Err(Diagnostic::error(
                        format!("expected an expression, found keyword `{name}`"),
                        sp,
                    )
                    .with_label(if name == "rd" {
                        "memory reads are statements of their own: `x := rd A[i];`"
                    } else {
                        "not an expression"
                    }));
                }
                self.check_var(&name, sp)?;
                Ok(Expr::Var(name))
            }
            _ => Err(self.error_here("an expression")),
        }
    }

    fn builtin(&mut self, name: &str) -> Result<Option<Builtin>, Diagnostic> {
        let ctor: fn(Dim) -> Builtin = match name {
            "tid" => Builtin::Tid,
            "bid" => Builtin::Bid,
            "bdim" => Builtin::BlockDim,
            "gdim" => Builtin::GridDim,
            _ => return Ok(None),
        };
        if !self.eat(".") {
            if name == "tid" {
                return Ok(Some(Builtin::Tid(Dim::X)));
            }
            return Err(self.error_here("`.x`, `.y` or `.z`"));
        }
        let (d, sp) = match self.bump() {
            (Tok::Ident(d), sp) => (d, sp),
            (_, sp) => return Err(Diagnostic::error("expected `x`, `y` or `z`", sp)),
        };
        let dim = match d.as_str() {
            "x" => Dim::X,
            "y" => Dim::Y,
            "z" => Dim::Z,
            _ => return Err(Diagnostic::error(format!("`{name}` has no component `{d}`"), sp)),
        };
        Ok(Some(ctor(dim)))
    }
}

fn infix_op(p: &str) -> Option<BinOp> {
    use BinOp::*;
    [Add, Sub, Mul, Div, Rem, Shl, Shr, BitAnd, BitOr, BitXor, And, Or, Eq, Ne, Lt, Le, Gt, Ge]
        .into_iter()
        .find(|op| op.infix() == Some(p))
}

/// Words that cannot name variables, arrays or parameters.
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "kernel"
            | "shared"
            | "global"
            | "local"
            | "rd"
            | "wr"
            | "atomic"
            | "barrier"
            | "syncwarp"
            | "gridsync"
            | "async"
            | "warp"
            | "commit"
            | "release"
            | "wait"
            | "assume"
            | "if"
            | "else"
            | "while"
            | "tid"
            | "bid"
            | "bdim"
            | "gdim"
    ) || BinOp::from_intrinsic(s).is_some()
}

/// Fills `kernel.places` for a kernel parsed from KPL text: a barrier after a statement goes on a
/// new line after it; a block start goes after the `{`; the position between a then block and its
/// else is not placeable.
fn compute_places(k: &mut Kernel, src: &str) {
    fn line_end(src: &str, at: usize) -> usize {
        src.get(at..).and_then(|s| s.find('\n')).map(|i| at + i).unwrap_or(src.len())
    }
    fn indent_of(src: &str, at: usize) -> String {
        let start = src.get(..at).and_then(|s| s.rfind('\n')).map(|i| i + 1).unwrap_or(0);
        src.get(start..at).unwrap_or("").chars().take_while(|c| c.is_whitespace()).collect()
    }
    fn go(b: &Block, src: &str, places: &mut Vec<Place>, outer_indent: &str) {
        let body_indent = b
            .stmts
            .first()
            .map(|s| indent_of(src, s.span.start))
            .unwrap_or_else(|| format!("{outer_indent}    "));
        let set = |places: &mut Vec<Place>, l: Label, p: Place| {
            if let Some(slot) = places.get_mut(l.0 as usize) {
                *slot = p;
            }
        };
        set(places, b.start, Place::Line { offset: b.span.start + 1, indent: body_indent.clone() });
        for s in &b.stmts {
            let indent = indent_of(src, s.span.start);
            let end = line_end(src, s.span.end.saturating_sub(1));
            set(places, s.label, Place::Line { offset: end, indent: indent.clone() });
            match &s.kind {
                StmtKind::If { then, els, .. } => {
                    go(then, src, places, &indent);
                    if let Some(e) = els {
                        set(places, s.label, Place::Not("between a then block and its else".into()));
                        set(places, e.label, Place::Line { offset: end, indent: indent.clone() });
                        go(e, src, places, &indent);
                    }
                }
                StmtKind::While { body, .. } => go(body, src, places, &indent),
                _ => {}
            }
        }
    }
    let mut places = std::mem::take(&mut k.places);
    go(&k.body, src, &mut places, "");
    if let Some(main) = places.get_mut(0) {
        *main = Place::Not("the end of the kernel".into());
    }
    k.places = places;
}
