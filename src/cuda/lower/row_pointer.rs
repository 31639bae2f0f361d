//! Pointers into a row of a multi-dimensional array (`float *row = &tile[ty][0];`,
//! `const float *col = tile[tx];`): the pointer keeps the outer
//! indices of the element it was formed from and moves in the last dimension only.
//!
//! A pointer of this lowering is a one-dimensional array, an element type and a word offset.
//! A row pointer is a *view*: a fresh name standing for the array with its outer indices fixed
//! (their values when the pointer was formed, kept in temporaries), so every use of pointers
//! (offsets, `p[i]`, `*(p + i)`, members of records) works on it unchanged; where an access is
//! emitted, [`Lx::in_memory`] turns the view back into the array and puts the outer indices in
//! front. A view never reaches KPL as an array name. Stepping past the row's end is an
//! out-of-bounds index of the last dimension (C's flat layout would reach the next row): the
//! verifier reports it rather than guessing.

use super::{strip, Binding, Elem, Lx, Node, NodeKind, R};
use crate::kpl::ast::Expr;

impl Lx<'_> {
    /// A view of `array` with the outer indices `prefix` (a thread-local array's row already
    /// in front), each value fixed now.
    pub(super) fn row_view(&mut self, array: &str, prefix: Vec<Expr>) -> String {
        let prefix = prefix
            .into_iter()
            .map(|e| match e {
                Expr::Const(_) | Expr::Builtin(_) => e,
                e => Expr::var(&self.temp(Some(e))),
            })
            .collect();
        let view = self.fresh(&format!("{array}_row"));
        self.views.insert(view.clone(), (array.to_string(), prefix));
        view
    }

    /// The array and full index an access to `index` of `array` is: a view's array with its
    /// outer indices in front, a thread-local array's element behind the thread's row.
    /// A wide view (`wide.rs`) stays a wide view, of the array its base resolves to.
    pub(super) fn in_memory(&mut self, array: String, index: Vec<Expr>) -> (String, Vec<Expr>) {
        let (base, k) = self.wide_base(&array);
        if k > 1 {
            // A wide view's base is never a wide view: one level.
            let base = base.to_string();
            let (real, full) = self.in_memory(base, index);
            return (self.wide_view(&real, k), full);
        }
        match self.views.get(&array) {
            Some((real, prefix)) => {
                let mut full = prefix.clone();
                full.extend(index);
                (real.clone(), full)
            }
            None => {
                let index = self.row_index(&array, index);
                (array, index)
            }
        }
    }

    /// Whether `array` is a view (a row of a multi-dimensional array).
    pub(super) fn is_view(&self, array: &str) -> bool {
        self.views.contains_key(array)
    }

    /// `a[i]` of a two-dimensional `a` (`a[i][j]` of a three-dimensional one) as a pointer to
    /// the row's first element. `None`: `n` is no subscript.
    pub(super) fn row_decay(&mut self, n: &Node) -> Option<R<(String, Elem, Expr)>> {
        if n.kind != NodeKind::ArraySubscript {
            return None;
        }
        let mut subs = Vec::new();
        let mut b = n;
        while b.kind == NodeKind::ArraySubscript {
            let [base, index] = b.children.as_slice() else { return None };
            subs.push(index);
            b = strip(base);
        }
        subs.reverse();
        Some((|| {
            let (array, elem, rank, offset) = self.array_base(b)?;
            if rank < 2 || offset.is_some() || subs.len() + 1 != rank {
                return Err(self.unsupported("this subscript as a pointer (only a row of an array)", n));
            }
            let mut prefix = Vec::new();
            for i in subs {
                prefix.push(self.rvalue(i)?.0);
            }
            let prefix = self.row_index(&array, prefix);
            let view = self.row_view(&array, prefix);
            Ok((view, elem, Expr::Const(0)))
        })())
    }

    /// A parameter of type `T (*)[N]…` (a pointer to rows, what `T p[][N]` declares) given a
    /// multi-dimensional array (`tile`) or a block of one with its outer indices fixed
    /// (`tiles[stage]`): the parameter is that array of rows, a view for the second. `None`: the
    /// parameter is of another type.
    pub(super) fn rows_param(&mut self, ty: &str, a: &Node) -> Option<R<Binding>> {
        let inner = rows_pointee_rank(ty)?;
        let mut subs = Vec::new();
        let mut b = strip(a);
        while b.kind == NodeKind::ArraySubscript {
            let [base, index] = b.children.as_slice() else { break };
            subs.push(index);
            b = strip(base);
        }
        subs.reverse();
        Some((|| {
            let (array, elem, rank, offset) = self.array_base(b)?;
            if offset.is_some() || subs.len() + inner + 1 != rank {
                return Err(self.unsupported(
                    "this argument for a pointer to rows (only an array or a block of one)",
                    a,
                ));
            }
            if subs.is_empty() {
                return Ok(Binding::Array { kpl: array, elem, rank });
            }
            let mut prefix = Vec::new();
            for i in subs {
                prefix.push(self.rvalue(i)?.0);
            }
            // A view of a view is a view of its array, with both prefixes.
            let (real, prefix) = match self.views.get(&array) {
                Some((real, outer)) => (real.clone(), outer.iter().cloned().chain(prefix).collect()),
                None => (array.clone(), self.row_index(&array, prefix)),
            };
            let view = self.row_view(&real, prefix);
            Ok(Binding::Array { kpl: view, elem, rank: inner + 1 })
        })())
    }
}

/// How many dimensions the rows of a pointer-to-rows type have (`float (*)[64]` → 1,
/// `int (*)[4][4]` → 2); `None` for other types.
fn rows_pointee_rank(ty: &str) -> Option<usize> {
    // A reference to an array (`unsigned (&r)[4]`) is the array itself: one dimension fewer
    // than a pointer to its rows counts.
    if let Some((_, rest)) = ty.split_once("(&") {
        let rest = rest.trim_start_matches(|c: char| c == ' ' || c.is_alphanumeric() || c == '_');
        let rest = rest.strip_prefix(')')?.trim();
        let dims = rest.split('[').skip(1).count();
        return (dims > 1 && rest.starts_with('[')).then_some(dims - 1).or(
            // `T (&)[N]`: rank 1, the array itself.
            (dims == 1 && rest.starts_with('[')).then_some(0),
        );
    }
    let (_, rest) = ty.split_once("(*")?;
    let rest = rest.trim_start_matches(|c: char| c == ' ' || c.is_alphanumeric() || c == '_');
    let rest = rest.strip_prefix(')')?.trim();
    let dims = rest.split('[').skip(1).count();
    (dims > 0 && rest.starts_with('[')).then_some(dims)
}
