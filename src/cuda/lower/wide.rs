//! Wider views of an array's elements (issue #37): a pointer cast to a type whose words are a
//! whole number of the array's elements — `reinterpret_cast<float4 *>(&x[i])` over `half x[]`,
//! `(int *)smem` over `extern __shared__ char smem[]`, a `uint *` over a `uchar` histogram.
//!
//! Memory stays the array's elements (KPL's unit); a word of the view covers `k` consecutive
//! elements, which KPL says with the access's `Width` (`rd x[i +: 2]`). As with row views
//! (`row_pointer.rs`), a wide view is a fresh name standing for the array, registered here with
//! its `k`: every pointer operation works on it unchanged except that offsets count the array's
//! elements, so stepping a view pointer or indexing it scales by `k` per word ([`Lx::elem_units`]).
//! [`resolve`] turns each access to a view back into an access to the array with width `k`
//! after the kernel is lowered; a view never reaches KPL as an array name.
//!
//! `memcpy`/`memset` of a constant size are accesses of a width too ([`Lx::memory_range`]).
//!
//! Soundness: a view's word `j` at element offset `o` is the elements `[o + j·k, o + j·k + k)`
//! exactly (C's layout: the array's elements are contiguous and the view's words are `k` of them
//! each). A view narrower than the array's elements (`(char *)` over `int`) is refused: one
//! element would be several words of the view.

use super::{Binding, Elem, Lx, Node, NodeKind, R};
use crate::kpl::ast::{Expr, Stmt, StmtKind, Width, WriteMode};
use std::collections::HashMap;

/// The wide views of one kernel: by view name, the array (or row view) it stands for and how
/// many of its elements one word of the view covers.
#[derive(Default)]
pub(super) struct WideViews {
    by_name: HashMap<String, (String, u32)>,
    by_base: HashMap<(String, u32), String>,
}

impl Lx<'_> {
    /// The view of `base` (an array or a row view, not a wide view) whose words cover `k` of its
    /// elements each; `base` itself for `k == 1`. One name per `(base, k)`, so two pointers of one
    /// view compare as pointers into one array.
    pub(super) fn wide_view(&mut self, base: &str, k: u32) -> String {
        if k == 1 {
            return base.to_string();
        }
        if let Some(v) = self.wide.by_base.get(&(base.to_string(), k)) {
            return v.clone();
        }
        let view = self.fresh(&format!("{base}_x{k}"));
        self.wide.by_name.insert(view.clone(), (base.to_string(), k));
        self.wide.by_base.insert((base.to_string(), k), view.clone());
        view
    }

    /// What `array` stands for when it is a wide view (its base and `k`), else itself and 1.
    pub(super) fn wide_base<'s>(&'s self, array: &'s str) -> (&'s str, u32) {
        match self.wide.by_name.get(array) {
            Some((base, k)) => (base, *k),
            None => (array, 1),
        }
    }

    /// How many of `array`'s elements one `elem` takes: its words, times the view's `k`.
    pub(super) fn elem_units(&self, array: &str, elem: &Elem) -> u32 {
        elem.words() * self.scale(array)
    }

    /// Whether `array` may be split into narrower units: an array of the kernel (not a row
    /// view, a pointer group or a scalar, whose accesses do not go through a view).
    fn splittable(&self, array: &str) -> bool {
        let declared = self.arrays.iter().any(|a| a.name == array);
        let group_or_scalar =
            self.source_arrays.iter().any(|(k, v)| k == array && (v.names.len() > 1 || v.scalar));
        declared && !group_or_scalar && !self.views.contains_key(array) && !self.cells.contains(array)
    }

    /// A binding as the source name sees it: an array whose elements are split (`split`) is
    /// the view of its units with `parts` per element.
    pub(super) fn split_view(&self, b: Binding) -> Binding {
        match b {
            Binding::Array { kpl, elem, rank } => match self.split.get(&kpl) {
                Some(&parts) => {
                    let view = self.wide.by_base.get(&(kpl.clone(), parts)).cloned().unwrap_or(kpl);
                    Binding::Array { kpl: view, elem, rank }
                }
                None => Binding::Array { kpl, elem, rank },
            },
            other => other,
        }
    }

    /// The array's elements per word through `array` (1 unless it is a wide view).
    pub(super) fn scale(&self, array: &str) -> u32 {
        self.wide_base(array).1
    }

    /// The view a pointer cast gives: the pointer into `array` whose words are `from_bytes` each,
    /// seen as words of `to_bytes` each. `None` when the new words are not a whole number of the
    /// array's elements (narrower than an element, or not a multiple of it).
    pub(super) fn cast_view(&mut self, array: &str, from_bytes: u32, to_bytes: u32) -> Option<String> {
        let (base, k) = self.wide_base(array);
        let base = base.to_string();
        if !from_bytes.is_multiple_of(k) {
            return None;
        }
        let unit = from_bytes / k;
        if unit > to_bytes && to_bytes > 0 && unit.is_multiple_of(to_bytes) && self.splittable(&base) {
            // Narrower than the array's elements: lower the kernel again with them split.
            self.relower = Some((base, unit / to_bytes));
            return None;
        }
        if unit == 0 || !to_bytes.is_multiple_of(unit) {
            return None;
        }
        let k = to_bytes / unit;
        // Through a row view, the row's own wide view: `in_memory` resolves the row first.
        Some(self.wide_view(&base, k))
    }
}

impl Lx<'_> {
    /// `memcpy(dst, src, bytes)` and `memset(dst, v, bytes)` with a constant size: one access
    /// covering the bytes, in each array's elements (a struct's words, a view's words) — a read of
    /// `src` and a write of `dst` of an unknown value. Refused when the size is not a constant or
    /// not a whole number of the pointers' words.
    pub(super) fn memory_range(&mut self, name: &str, args: &[Node], n: &Node) -> R<()> {
        let (size, _) = self.rvalue(&args[2])?;
        let Some(bytes) = size.constant_value() else {
            return Err(self.unsupported(format!("`{name}` of a size that is not a constant"), n));
        };
        // A struct in locals on either side (`memcpy(&r, &recs[i], sizeof(Rec))`).
        if let Some(r) = self.memory_range_locals(name, args, bytes, n) {
            return r;
        }
        let value = match name {
            "memcpy" => {
                let (array, index, width) = self.byte_range(&args[1], bytes, name, n)?;
                let v = self.fresh("copied");
                self.emit(StmtKind::Local { name: v.clone(), init: None });
                self.emit(StmtKind::Read { dst: v.clone(), array, index, width });
                Expr::var(&v)
            }
            _ => {
                // The byte value replicated: an unknown word (two memsets are not proven to
                // store one value).
                self.rvalue(&args[1])?;
                let v = self.fresh("filled");
                self.emit(StmtKind::Local { name: v.clone(), init: None });
                Expr::var(&v)
            }
        };
        let (array, index, width) = self.byte_range(&args[0], bytes, name, n)?;
        self.emit(StmtKind::Write { array, index, value, width, mode: WriteMode::Plain });
        Ok(())
    }

    /// `memcpy`/`memset` whose destination or source is the address of a struct held in locals
    /// (`&r`), copying the whole struct: the memory side is one access covering its bytes, as
    /// for arrays; the struct's words take unknown values (memory's values are not followed).
    /// `None`: neither side is such a struct. Refused: a size other than the struct's, a struct
    /// with padding or pointers (bytes copied into a pointer are not a pointer into a known
    /// array).
    fn memory_range_locals(&mut self, name: &str, args: &[Node], bytes: u32, n: &Node) -> Option<R<()>> {
        let dst = self.address_of_local_record(peel_pointer_casts(&args[0]));
        let src = match name {
            "memcpy" => self.address_of_local_record(peel_pointer_casts(&args[1])),
            _ => None,
        };
        if dst.is_none() && src.is_none() {
            return None;
        }
        Some((|| {
            for l in dst.iter().chain(&src) {
                let size = self.size_of(&l.layout.name);
                let pointers =
                    l.layout.fields.iter().any(|(_, m)| matches!(m, super::record::Member::Pointer(_)));
                if size != Some(bytes) || pointers {
                    return Err(self.unsupported(
                        format!("`{name}` of {bytes} bytes to or from the struct `{}` in locals (only the whole struct, without pointers or padding)", l.layout.name),
                        n,
                    ));
                }
            }
            match (name, &src) {
                // The memory read happens first: the source's range, its value unknown.
                ("memcpy", None) => {
                    let (array, index, width) = self.byte_range(&args[1], bytes, name, n)?;
                    let v = self.fresh("copied");
                    self.emit(StmtKind::Local { name: v.clone(), init: None });
                    self.emit(StmtKind::Read { dst: v, array, index, width });
                }
                ("memset", _) => {
                    self.rvalue(&args[1])?;
                }
                _ => {}
            }
            match dst {
                Some(l) => {
                    for f in &l.fields {
                        if let Binding::Scalar { kpl, .. } = f {
                            let v = self.fresh("copied");
                            self.emit(StmtKind::Local { name: v.clone(), init: None });
                            self.emit(StmtKind::Assign { name: kpl.clone(), value: Expr::var(&v) });
                        }
                    }
                }
                None => {
                    let v = self.fresh("copied");
                    self.emit(StmtKind::Local { name: v.clone(), init: None });
                    let (array, index, width) = self.byte_range(&args[0], bytes, name, n)?;
                    self.emit(StmtKind::Write {
                        array,
                        index,
                        value: Expr::var(&v),
                        width,
                        mode: WriteMode::Plain,
                    });
                }
            }
            Ok(())
        })())
    }

    /// The access `bytes` bytes from the pointer `arg` (converted to `void *` for the call) cover:
    /// its array, index and width in the pointer's words (a wide view's words are widened to the
    /// array's elements by [`resolve`]).
    pub(super) fn byte_range(
        &mut self,
        arg: &Node,
        bytes: u32,
        name: &str,
        n: &Node,
    ) -> R<(String, Vec<Expr>, Width)> {
        let (array, word, off) = self.pointer_words(arg)?;
        self.range_at(array, word, off, bytes, name, n)
    }

    /// The access `bytes` bytes cover from word `off` of `array`, whose words have `word` bytes.
    pub(super) fn range_at(
        &mut self,
        array: String,
        word: Option<u32>,
        off: Expr,
        bytes: u32,
        name: &str,
        n: &Node,
    ) -> R<(String, Vec<Expr>, Width)> {
        let scale = self.scale(&array);
        match word {
            Some(w) if w > 0 && bytes.is_multiple_of(w) && (1..=64).contains(&(bytes / w * scale)) => {
                let (array, index) = self.in_memory(array, vec![off]);
                Ok((array, index, Width(bytes / w)))
            }
            _ => Err(self.unsupported(format!("`{name}` of {bytes} bytes over this pointer's words"), n)),
        }
    }
}

/// How many times one kernel is lowered again for arrays seen through narrower types.
pub(super) const MAX_RELOWERINGS: usize = 4;

/// Every access to a wide view in `stmts` becomes an access to its array covering `k` elements.
/// `Err` names a view whose base is not an array (a row view left unresolved): the caller
/// refuses the kernel rather than guessing.
pub(super) fn resolve(
    stmts: &mut [Stmt],
    views: &WideViews,
    is_row_view: impl Fn(&str) -> bool,
) -> Result<(), String> {
    let mut stack: Vec<&mut [Stmt]> = vec![stmts];
    while let Some(list) = stack.pop() {
        for s in list.iter_mut() {
            match &mut s.kind {
                StmtKind::Read { array, width, .. }
                | StmtKind::Write { array, width, .. }
                | StmtKind::Atomic { array, width, .. } => {
                    if let Some((base, k)) = views.by_name.get(array.as_str()) {
                        if is_row_view(base) {
                            return Err(base.clone());
                        }
                        *array = base.clone();
                        *width = Width(width.get() * k);
                    }
                }
                StmtKind::If { then, els, .. } => {
                    stack.push(&mut then.stmts);
                    if let Some(e) = els {
                        stack.push(&mut e.stmts);
                    }
                }
                StmtKind::While { body, .. } => stack.push(&mut body.stmts),
                _ => {}
            }
        }
    }
    Ok(())
}

/// `arg` without the conversions to `void *` a `memcpy` argument goes through.
fn peel_pointer_casts(mut arg: &Node) -> &Node {
    loop {
        match &arg.kind {
            NodeKind::ImplicitCast { cast } | NodeKind::CStyleCast { cast }
                if matches!(cast.as_str(), "BitCast" | "NoOp" | "LValueToRValue") =>
            {
                match arg.children.first() {
                    Some(c) => arg = c,
                    None => return arg,
                }
            }
            NodeKind::Paren | NodeKind::StaticCast | NodeKind::ReinterpretCast => {
                match arg.children.first() {
                    Some(c) => arg = c,
                    None => return arg,
                }
            }
            _ => return arg,
        }
    }
}
