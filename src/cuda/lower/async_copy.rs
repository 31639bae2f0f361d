//! Asynchronous copies from global to shared memory (issue #38): the primitive pipeline API
//! (`__pipeline_memcpy_async`, `__pipeline_commit`, `__pipeline_wait_prior`) and inline PTX
//! (`cp.async.{ca,cg}.shared.global`, `cp.async.commit_group`, `cp.async.wait_group`,
//! `cp.async.wait_all`), lowered to KPL's `rd` + `async wr`, `commit` and `wait n`.
//!
//! Also `bar.sync 0` (`__syncthreads()`), fences (`membar`, `fence`: no effect between threads),
//! and the tensor-core instructions: `ldmatrix` (each lane reads the 16-byte row whose address it
//! gives), `stmatrix` (a warp-collective store of those rows), `mma.sync` (registers only); an
//! instruction's outputs get unknown values.
//! An `asm` statement is read from the file's text (clang's JSON dump holds its operands but
//! not its template; one written through a macro of the file, `CP_ASYNC_CG16(dst, src)`, from
//! the macro's one `#define`): its instructions are looked up in a table, each lowered from its operands;
//! an instruction outside the table refuses the kernel with its text. A shared-memory address
//! operand is `__cvta_generic_to_shared(p)`, directly or through a local integer initialized
//! with it and never assigned (`Lx::shared_addresses`), whose use as a number is refused.

use super::{strip, Lx, Node, NodeKind, R};
use crate::kpl::ast::{Expr, StmtKind, Width, WriteMode, MAX_WAIT_PENDING};

/// A local integer holding a shared-memory address (`unsigned a = __cvta_generic_to_shared(p)`):
/// the array, the size of its words in bytes, and the local holding the word offset.
#[derive(Clone, Debug)]
pub(super) struct SharedAddress {
    pub array: String,
    pub word_bytes: u32,
    pub offset: String,
}

/// The name of CUDA's conversion of a generic pointer to a shared-memory address.
const TO_SHARED: &str = "__cvta_generic_to_shared";

impl Lx<'_> {
    /// The pipeline primitives, when `name` is one (`None`: another call).
    pub(super) fn pipeline_primitive(&mut self, name: &str, args: &[Node], n: &Node) -> Option<R<()>> {
        Some(match name {
            "__pipeline_memcpy_async" if (3..=4).contains(&args.len()) => self.pipeline_memcpy(args, n),
            "__pipeline_commit" if args.is_empty() => {
                self.emit(StmtKind::Commit);
                Ok(())
            }
            "__pipeline_wait_prior" if args.len() == 1 => self.wait_count(&args[0], n).map(|pending| {
                self.emit(StmtKind::Wait { pending });
            }),
            _ => return None,
        })
    }

    /// `__pipeline_memcpy_async(dst, src, size[, zfill])`: the read of `size` bytes of `src` at the
    /// call (a zero fill reads less; reading the whole size can only report more), and the
    /// asynchronous write of `size` bytes of `dst`.
    fn pipeline_memcpy(&mut self, args: &[Node], n: &Node) -> R<()> {
        if let Some(z) = args
            .get(3)
            .filter(|z| !matches!(&z.kind, NodeKind::Other { kind } if kind == "CXXDefaultArgExpr"))
        {
            self.rvalue(z)?;
        }
        self.constant_size_copy(&args[0], &args[1], &args[2], "__pipeline_memcpy_async", n)
    }

    /// An asynchronous copy of `size` bytes, a constant, from `src` to `dst` (`name`: the call,
    /// for refusals): the read at the call and the asynchronous write.
    pub(super) fn constant_size_copy(
        &mut self,
        dst: &Node,
        src: &Node,
        size: &Node,
        name: &str,
        n: &Node,
    ) -> R<()> {
        let (size, _) = self.rvalue(size)?;
        let Some(bytes) = size.constant_value() else {
            return Err(self.unsupported(format!("`{name}` of a size that is not a constant"), n));
        };
        let (array, word, off) = self.pointer_words(dst)?;
        let target = self.range_at(array, word, off, bytes, name, n)?;
        self.copy_async(src, target, bytes, name, n)
    }

    /// The read of a copy's source and the asynchronous write of its destination `target`.
    fn copy_async(
        &mut self,
        src: &Node,
        (array, index, width): (String, Vec<Expr>, Width),
        bytes: u32,
        name: &str,
        n: &Node,
    ) -> R<()> {
        let (s_array, s_index, s_width) = self.byte_range(src, bytes, name, n)?;
        let v = self.fresh("copied");
        self.emit(StmtKind::Local { name: v.clone(), init: None });
        self.emit(StmtKind::Read { dst: v.clone(), array: s_array, index: s_index, width: s_width });
        self.emit(StmtKind::Write { array, index, value: Expr::var(&v), width, mode: WriteMode::Async });
        Ok(())
    }

    /// A count of groups left in flight: a constant from 0 to [`MAX_WAIT_PENDING`].
    fn wait_count(&mut self, arg: &Node, n: &Node) -> R<u32> {
        let (e, _) = self.rvalue(arg)?;
        self.checked_wait_count(e.constant_value(), "a wait for a number of groups", n)
    }

    /// `count` when it is a count of groups left in flight (0 to [`MAX_WAIT_PENDING`]); else the
    /// refusal of `what` (the wait, in words) at `n`.
    pub(super) fn checked_wait_count(&self, count: Option<u32>, what: &str, n: &Node) -> R<u32> {
        match count {
            Some(v) if v <= MAX_WAIT_PENDING => Ok(v),
            _ => {
                Err(self
                    .unsupported(format!("{what} that is not a constant from 0 to {MAX_WAIT_PENDING}"), n))
            }
        }
    }

    /// The binding of a local integer initialized with `__cvta_generic_to_shared(p)` (`init`, which
    /// the caller checked is that call): `p`'s array, word size and word offset, kept in a local.
    pub(super) fn shared_address_local(&mut self, name: &str, init: &Node) -> R<SharedAddress> {
        let Some(p) = to_shared_argument(init) else {
            return Err(
                self.unsupported("a shared-memory address that is not `__cvta_generic_to_shared(p)`", init)
            );
        };
        let (array, word, off) = self.pointer_words(p)?;
        let Some(word_bytes) = word else {
            return Err(
                self.unsupported("a shared-memory address of a pointer whose words have no one size", init)
            );
        };
        let offset = self.fresh(&format!("{name}_at"));
        self.emit(StmtKind::Local { name: offset.clone(), init: Some(off) });
        Ok(SharedAddress { array, word_bytes, offset })
    }

    /// The shared-memory location an `asm` address operand names: its array, word size and word
    /// offset.
    fn shared_operand(&mut self, e: &Node, n: &Node) -> R<(String, Option<u32>, Expr)> {
        if let Some(p) = to_shared_argument(e) {
            return self.pointer_words(p);
        }
        let s = strip_casts(e);
        if let NodeKind::DeclRef { decl_id, .. } = &s.kind {
            if let Some(a) = self.shared_addresses.get(decl_id.as_str()).cloned() {
                return Ok((a.array, Some(a.word_bytes), Expr::var(&a.offset)));
            }
        }
        Err(self.unsupported(
            "a shared-memory address operand that is not `__cvta_generic_to_shared(p)` or a local initialized with it",
            n,
        ))
    }

    /// An inline `asm` statement: each instruction of its template, from the table.
    pub(super) fn inline_asm(&mut self, n: &Node) -> R<()> {
        let text = self.span_of(n).and_then(|s| self.src.get(s.start..s.end)).unwrap_or_default().to_string();
        // Written through a macro of this file (`CP_ASYNC_CG16(dst, src)`): the statement's
        // text is the macro's use, its template and operands are the macro's body (the operands'
        // values are clang's, from the arguments).
        let text = asm_statement_text(self.src, &text);
        let parsed = parse_asm(&text).map_err(|why| self.unsupported(format!("inline `asm` ({why})"), n))?;
        if n.children.len() != parsed.outputs + parsed.inputs.len() {
            return Err(self.unsupported("inline `asm` whose operands could not be matched with its text", n));
        }
        for instr in instructions(&parsed.template) {
            self.asm_instruction(&instr, n)?;
        }
        // Every instruction is in the table: its outputs are registers it sets to values
        // nobody models (an `ldmatrix` fragment, an `mma` accumulator).
        for out in n.children.iter().take(parsed.outputs) {
            let target = self.target(out)?;
            let v = self.fresh("asm_out");
            self.emit(StmtKind::Local { name: v.clone(), init: None });
            let ty = out.ty.as_deref().and_then(|t| self.scalar_of(t)).unwrap_or(super::Ty::UInt);
            self.store(target, Expr::var(&v), ty);
        }
        Ok(())
    }

    fn asm_instruction(&mut self, instr: &str, n: &Node) -> R<()> {
        let refuse = |lx: &Self| lx.unsupported(format!("the PTX instruction `{instr}`"), n);
        let (opcode, rest) = instr.split_once(char::is_whitespace).unwrap_or((instr, ""));
        let operands = split_operands(rest);
        let operands: Vec<&str> = operands.iter().map(String::as_str).collect();
        let operand_node = |text: &str| -> Option<&Node> {
            let k = operand_index(text)?;
            n.children.get(k)
        };
        if !in_table(opcode, &operands) {
            return Err(refuse(self));
        }
        match opcode {
            "cp.async.commit_group" => self.emit_unit(StmtKind::Commit),
            "cp.async.wait_all" => {
                self.emit(StmtKind::Commit);
                self.emit_unit(StmtKind::Wait { pending: 0 })
            }
            // `__syncthreads()` written in PTX: barrier 0 of the whole block.
            op if is_named_barrier(op) && operands == ["0"] && !op.contains("arrive") => {
                self.emit_unit(StmtKind::Barrier)
            }
            // A named barrier: its id and thread count constants (literals, or operands clang
            // folds to constants).
            op if is_named_barrier(op) => {
                let mut constant = |text: &str, what: &str| -> R<u32> {
                    if let Ok(v) = text.parse::<u32>() {
                        return Ok(v);
                    }
                    let node = operand_node(text).ok_or_else(|| refuse(self))?;
                    let (e, _) = self.rvalue(node)?;
                    let known = match &e {
                        Expr::Var(x) => self.constant_locals.get(x).copied(),
                        _ => None,
                    };
                    e.constant_value().or(known).ok_or_else(|| {
                        self.unsupported(
                            format!("a named barrier whose {what} is not a constant (`{instr}`)"),
                            n,
                        )
                    })
                };
                let id = constant(operands[0], "id")?;
                let count = match operands.get(1) {
                    Some(c) => Some(constant(c, "thread count")?),
                    None => None,
                };
                let wait = !op.contains("arrive");
                if id > 15 {
                    return Err(self.unsupported(format!("named barrier {id} (PTX has barriers 0 to 15)"), n));
                }
                if id == 0 && count.is_some() {
                    return Err(self.unsupported(
                        format!(
                            "barrier 0 with a thread count (`{instr}`): barrier 0 is `__syncthreads()`'s"
                        ),
                        n,
                    ));
                }
                if count == Some(0) || count.is_some_and(|c| c % 32 != 0) {
                    return Err(self.unsupported(
                        format!(
                            "a named barrier whose thread count is not a positive multiple of 32 (`{instr}`)"
                        ),
                        n,
                    ));
                }
                if !wait && count.is_none() {
                    return Err(self.unsupported(format!("`{instr}` without a thread count"), n));
                }
                self.emit_unit(StmtKind::NamedBarrier { id, count, wait })
            }
            // A fence orders one thread's accesses for other observers, but synchronizes no two
            // threads: nothing to model (leaving it out can only report more).
            op if op.starts_with("membar.") || op.starts_with("fence.") => Ok(()),
            "cp.async.wait_group" => {
                let [count] = operands.as_slice() else { return Err(refuse(self)) };
                let pending = match count.parse::<u32>() {
                    Ok(v) if v <= MAX_WAIT_PENDING => v,
                    Ok(_) => return Err(refuse(self)),
                    Err(_) => match operand_node(count) {
                        Some(c) => self.wait_count(c, n)?,
                        None => return Err(refuse(self)),
                    },
                };
                self.emit_unit(StmtKind::Wait { pending })
            }
            // Registers only: the outputs get unknown values (above).
            op if op.starts_with("mma.sync.") || op.starts_with("wmma.mma.") => Ok(()),
            // Each lane reads the 8 16-bit elements of the row whose address it gives (lanes
            // past the count the shape needs give one too: reading more can only report more).
            op if op.starts_with("ldmatrix.sync.") && op.contains(".shared") => {
                let Some(d) = operands.last().and_then(|a| address_operand(a)).and_then(operand_node) else {
                    return Err(refuse(self));
                };
                let ((array, index, width), v) = self.matrix_row(d, "ldmatrix", n)?;
                self.emit_unit(StmtKind::Read { dst: v, array, index, width })
            }
            // The warp stores its fragments' rows, each at the address a lane gives: a
            // warp-collective store of that row.
            op if op.starts_with("stmatrix.sync.") && op.contains(".shared") => {
                let Some(d) = operands.first().and_then(|a| address_operand(a)).and_then(operand_node) else {
                    return Err(refuse(self));
                };
                let ((array, index, width), v) = self.matrix_row(d, "stmatrix", n)?;
                self.emit_unit(StmtKind::Write {
                    array,
                    index,
                    value: Expr::var(&v),
                    width,
                    mode: WriteMode::Warp,
                })
            }
            op if is_async_copy(op) => {
                // `[dst], [src], cp-size[, src-size[, policy]]`.
                let (Some(dst), Some(src), Some(size)) = (operands.first(), operands.get(1), operands.get(2))
                else {
                    return Err(refuse(self));
                };
                let bytes = match size.parse::<u32>() {
                    Ok(b) => b,
                    Err(_) => match operand_node(size) {
                        Some(s) => {
                            let (e, _) = self.rvalue(s)?;
                            e.constant_value().ok_or_else(|| refuse(self))?
                        }
                        None => return Err(refuse(self)),
                    },
                };
                let (Some(d), Some(s)) = (
                    address_operand(dst).and_then(operand_node),
                    address_operand(src).and_then(operand_node),
                ) else {
                    return Err(refuse(self));
                };
                // A source size (zero fill) or cache policy operand is evaluated; the whole size
                // is read (more reads can only report more).
                for extra in operands.iter().skip(3) {
                    if let Some(e) = operand_node(extra) {
                        self.rvalue(e)?;
                    }
                }
                let (array, word, off) = self.shared_operand(d, n)?;
                let target = self.range_at(array, word, off, bytes, "cp.async", n)?;
                self.copy_async(s, target, bytes, "cp.async", n)
            }
            _ => Err(refuse(self)),
        }
    }

    /// The 16-byte matrix row at the shared address operand `d`, and a fresh local for its value.
    fn matrix_row(&mut self, d: &Node, name: &str, n: &Node) -> R<(Range, String)> {
        let (array, word, off) = self.shared_operand(d, n)?;
        let row = self.range_at(array, word, off, MATRIX_ROW_BYTES, name, n)?;
        let v = self.fresh("fragment_row");
        self.emit(StmtKind::Local { name: v.clone(), init: None });
        Ok((row, v))
    }

    fn emit_unit(&mut self, kind: StmtKind) -> R<()> {
        self.emit(kind);
        Ok(())
    }

    /// The pointer `arg` (its conversions to `void *` seen through): its array, the size of its
    /// words (a `void *`'s are those of the pointer it was made from) and its word offset.
    pub(super) fn pointer_words(&mut self, arg: &Node) -> R<(String, Option<u32>, Expr)> {
        let (p, word) = self.void_stripped(arg);
        let (array, _, off) = self.pointer(p)?;
        let word = word.or_else(|| self.void_words.get(&array).copied());
        Ok((array, word, off))
    }

    /// The pointer `arg` with its conversions to `void *` removed, and the size of its words.
    pub(super) fn void_stripped<'n>(&self, arg: &'n Node) -> (&'n Node, Option<u32>) {
        let mut p = strip(arg);
        while let (NodeKind::ImplicitCast { .. } | NodeKind::CStyleCast { .. }, [c]) =
            (&p.kind, p.children.as_slice())
        {
            if !p.ty.as_deref().is_some_and(|t| t.contains("void")) {
                break;
            }
            p = strip(c);
        }
        let word =
            p.ty.as_deref()
                .map(|t| self.resolve(t))
                .and_then(|t| {
                    super::pointee(&t).map(str::to_string).or_else(|| super::array_type(&t).map(|(e, _)| e))
                })
                .and_then(|t| self.word_bytes(&t));
        (p, word)
    }
}

/// The argument of a `__cvta_generic_to_shared(p)` call `e` is (through casts).
pub(super) fn to_shared_argument(e: &Node) -> Option<&Node> {
    let c = strip_casts(e);
    match (&c.kind, c.children.as_slice()) {
        (NodeKind::Call { callee: Some(name) }, [_, arg]) if name == TO_SHARED => Some(arg),
        _ => None,
    }
}

/// `e` without parentheses and casts of any kind (an address operand is converted to the
/// register's integer type).
fn strip_casts(mut e: &Node) -> &Node {
    loop {
        e = strip(e);
        match (&e.kind, e.children.as_slice()) {
            (
                NodeKind::ImplicitCast { .. }
                | NodeKind::CStyleCast { .. }
                | NodeKind::StaticCast
                | NodeKind::FunctionalCast
                | NodeKind::ReinterpretCast,
                [c],
            ) => e = c,
            _ => return e,
        }
    }
}

/// Whether `op` is a barrier instruction the lowering models: `bar.sync`/`bar.arrive` and their
/// `barrier.*` spellings (`.aligned`, `.cta` variants included); `bar.red` is not.
fn is_named_barrier(op: &str) -> bool {
    let op = op.strip_suffix(".aligned").unwrap_or(op);
    matches!(
        op,
        "bar.sync"
            | "barrier.sync"
            | "bar.arrive"
            | "barrier.arrive"
            | "bar.cta.sync"
            | "barrier.cta.sync"
            | "bar.cta.arrive"
            | "barrier.cta.arrive"
    )
}

/// Whether the lowering models an instruction (the table `asm_instruction` lowers by): a named
/// barrier of part of the block is not.
fn in_table(opcode: &str, operands: &[&str]) -> bool {
    match opcode {
        "cp.async.commit_group" | "cp.async.wait_all" | "cp.async.wait_group" => true,
        op if is_named_barrier(op) => (1..=2).contains(&operands.len()),
        op => {
            op.starts_with("membar.")
                || op.starts_with("fence.")
                || op.starts_with("mma.sync.")
                || op.starts_with("wmma.mma.")
                || ((op.starts_with("ldmatrix.sync.") || op.starts_with("stmatrix.sync."))
                    && op.contains(".shared"))
                || is_async_copy(op)
        }
    }
}

/// The first instruction of the `asm` statement written `text` (in the file `src`) that the
/// lowering does not model, for the list of a refused kernel's constructs (`None`: every one is
/// modelled; an `asm` that cannot be read is named by what keeps it from being read).
pub(super) fn unmodelled_asm(src: &str, text: &str) -> Option<String> {
    let parsed = match parse_asm(&asm_statement_text(src, text)) {
        Ok(p) => p,
        Err(why) => return Some(why),
    };
    instructions(&parsed.template).into_iter().find(|instr| {
        let (opcode, rest) = instr.split_once(char::is_whitespace).unwrap_or((instr, ""));
        let operands = split_operands(rest);
        !in_table(opcode, &operands.iter().map(String::as_str).collect::<Vec<_>>())
    })
}

/// The text of an `asm` statement written `text` in the file `src`: itself, or the body of the
/// file's function-like macro it uses (`CP_ASYNC_CG16(dst, src)`).
fn asm_statement_text(src: &str, text: &str) -> String {
    match macro_use(text).and_then(|name| macro_body(src, name)) {
        Some(body) if !starts_with_asm(text) => body,
        _ => text.to_string(),
    }
}

/// The template of the `asm` statement written `text` in the file `src` (`None`: unreadable).
pub(super) fn asm_template(src: &str, text: &str) -> Option<String> {
    parse_asm(&asm_statement_text(src, text)).ok().map(|p| p.template)
}

/// Whether a PTX opcode is an asynchronous copy from global to shared memory of one thread
/// (`cp.async.ca.shared.global`, `cp.async.cg.shared.global.L2::128B`, …; not the bulk copies).
fn is_async_copy(op: &str) -> bool {
    op.starts_with("cp.async.")
        && !op.contains("bulk")
        && (op.contains(".shared.global") || op.contains(".shared::cta.global"))
}

/// An access's array, index and width.
type Range = (String, Vec<Expr>, Width);

/// The bytes of one row of an 8x8 matrix of 16-bit elements (`ldmatrix`, `stmatrix`).
const MATRIX_ROW_BYTES: u32 = 16;

/// An instruction's operands: split at the commas outside `{…}` and `[…]`.
fn split_operands(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(String::new());
        } else if let Some(cur) = out.last_mut() {
            cur.push(c);
        }
    }
    out.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

/// `k` of an operand written `%k`.
fn operand_index(text: &str) -> Option<usize> {
    text.trim().strip_prefix('%')?.parse().ok()
}

/// The operand of an address `[%k]` (no offset).
fn address_operand(text: &str) -> Option<&str> {
    text.trim().strip_prefix('[')?.strip_suffix(']').map(str::trim)
}

/// An `asm` statement's template and operand constraints, read from its text.
#[derive(Debug, PartialEq)]
pub(super) struct ParsedAsm {
    pub template: String,
    pub outputs: usize,
    /// The constraint of every input operand.
    pub inputs: Vec<String>,
}

/// Reads `asm [volatile] ("template" … : outputs : inputs : clobbers)`.
/// Whether `text` starts with an `asm` keyword.
fn starts_with_asm(text: &str) -> bool {
    let t = text.trim_start();
    ["asm", "__asm__", "__asm"]
        .iter()
        .any(|k| t.strip_prefix(k).is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_')))
}

/// The macro a statement's text uses, when it is a macro's use (`NAME(…)` or `NAME`).
fn macro_use(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let end = t.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(t.len());
    let name = &t[..end];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// The body of the macro `name` as `src` defines it (`#define NAME(a, b) body`, continued
/// lines joined), when it is defined exactly once with one text there (a macro defined twice,
/// in `#if` branches, could be either: `None`).
fn macro_body(src: &str, name: &str) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for line in src.lines() {
        match line.strip_suffix('\\') {
            Some(head) => cur.push_str(head),
            None => {
                cur.push_str(line);
                lines.push(std::mem::take(&mut cur));
            }
        }
    }
    let mut found: Option<String> = None;
    for line in &lines {
        let Some(rest) = line.trim_start().strip_prefix('#') else { continue };
        let Some(rest) = rest.trim_start().strip_prefix("define") else { continue };
        if !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let Some(rest) = rest.trim_start().strip_prefix(name) else { continue };
        let body = if let Some(params) = rest.strip_prefix('(') {
            params.split_once(')')?.1
        } else if rest.is_empty() || rest.starts_with(char::is_whitespace) {
            rest
        } else {
            continue;
        };
        let body = body.trim().to_string();
        if found.as_ref().is_some_and(|f| *f != body) {
            return None;
        }
        found = Some(body);
    }
    found
}

pub(super) fn parse_asm(text: &str) -> Result<ParsedAsm, String> {
    let t = text.trim_start();
    let t = ["asm", "__asm__", "__asm"]
        .iter()
        .find_map(|k| t.strip_prefix(k))
        .ok_or("its text does not start with `asm`: written through a macro?")?;
    let mut t = t.trim_start();
    for q in ["volatile", "__volatile__", "__volatile"] {
        if let Some(r) = t.strip_prefix(q) {
            t = r.trim_start();
        }
    }
    let t = t.strip_prefix('(').ok_or("no `(` after `asm`")?;
    let sections = split_top(t, ':');
    let (template, rest) = sections.split_first().ok_or("no template")?;
    let template = string_literals(template).ok_or("a template that is not string literals")?;
    let operands = |s: Option<&String>| -> Vec<String> {
        s.map(|s| split_top(s, ',').into_iter().filter(|o| !o.trim().is_empty()).collect())
            .unwrap_or_default()
    };
    let outputs = operands(rest.first()).len();
    let inputs = operands(rest.get(1))
        .iter()
        .map(|o| string_literals(o.split('(').next().unwrap_or_default()).unwrap_or_default())
        .collect();
    if template.contains("%[") {
        return Err("named operands".into());
    }
    Ok(ParsedAsm { template, outputs, inputs })
}

/// `text` split at `sep` outside string literals and brackets, up to the `)` closing the
/// statement.
fn split_top(text: &str, sep: char) -> Vec<String> {
    let mut out = vec![String::new()];
    let (mut depth, mut in_str, mut escaped) = (0i32, false, false);
    for c in text.chars() {
        if in_str {
            if let Some(cur) = out.last_mut() {
                cur.push(c);
            }
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' => depth += 1,
            ')' if depth == 0 => break,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 {
            out.push(String::new());
        } else if let Some(cur) = out.last_mut() {
            cur.push(c);
        }
    }
    out
}

/// The concatenated contents of adjacent string literals (escapes decoded); `None` when `text`
/// holds anything else.
fn string_literals(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = text.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => continue,
            '"' => loop {
                match chars.next()? {
                    '"' => break,
                    '\\' => match chars.next()? {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        other => out.push(other),
                    },
                    other => out.push(other),
                }
            },
            _ => return None,
        }
    }
    Some(out)
}

/// The instructions of a template: split at `;` and line ends, blank ones and comments dropped.
pub(super) fn instructions(template: &str) -> Vec<String> {
    template
        .split([';', '\n'])
        .map(|s| s.split("//").next().unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_templates_and_operands() {
        let p = parse_asm(
            r#"asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(saddr), "l"(gmem));"#,
        )
        .expect("parses");
        assert_eq!(p.outputs, 0);
        assert_eq!(p.inputs, vec!["r".to_string(), "l".to_string()]);
        assert_eq!(instructions(&p.template), vec!["cp.async.cg.shared.global [%0], [%1], 16"]);
        let p = parse_asm(r#"asm volatile("cp.async.wait_group %0;\n" ::"n"(N))"#).expect("parses");
        assert_eq!(instructions(&p.template), vec!["cp.async.wait_group %0"]);
        let p = parse_asm(r#"asm("mov.u32 %0, %%laneid;" : "=r"(lane))"#).expect("parses");
        assert_eq!((p.outputs, p.inputs.len()), (1, 0));
        assert!(parse_asm("CP_ASYNC(a, b)").is_err());
        assert!(is_async_copy("cp.async.ca.shared.global"));
        assert!(is_async_copy("cp.async.cg.shared.global.L2::128B"));
        assert!(!is_async_copy("cp.async.bulk.shared::cluster.global"));
        assert_eq!(address_operand("[%3]").and_then(operand_index), Some(3));
        assert_eq!(split_operands("{%0, %1, %2, %3}, [%4]"), vec!["{%0, %1, %2, %3}", "[%4]"]);
    }

    #[test]
    fn reads_macro_bodies() {
        let src = "#define CP(dst, src) \\\n    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" \\\n   :: \"r\"(dst), \"l\"(src))\n#define COMMIT() asm volatile(\"cp.async.commit_group;\\n\" ::)\n#define WAIT_ALL asm volatile(\"cp.async.wait_all;\")\n";
        assert_eq!(macro_use("CP(&s[0], g)"), Some("CP"));
        let body = macro_body(src, "CP").expect("defined");
        let p = parse_asm(&body).expect("parses");
        assert_eq!(p.inputs, vec!["r".to_string(), "l".to_string()]);
        assert!(parse_asm(&macro_body(src, "COMMIT").expect("defined")).is_ok());
        assert!(parse_asm(&macro_body(src, "WAIT_ALL").expect("defined")).is_ok());
        assert_eq!(macro_body(src, "WAIT"), None);
        assert_eq!(macro_body("#define A 1\n#define A 2\n", "A"), None);
        assert!(starts_with_asm("asm volatile(\"\")") && !starts_with_asm("asmx(1)"));
    }
}
