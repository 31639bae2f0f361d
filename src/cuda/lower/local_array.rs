//! Thread-local arrays (`float r[4];`, `float acc[TM][TN] = {0};`): one row per thread of a
//! `shared` KPL array whose leading dimensions are the thread's `tid.z`, `tid.y`, `tid.x`
//! ([`crate::kpl::THREAD_ROW_DIMS`], CUDA's bounds), indexed by [`crate::kpl::thread_row`].
//! Two threads never share an element, so no access to one can race, and the verifier
//! recognises the row (`ArrayDecl::is_thread_row`) and checks the thread's own indices
//! against the declared sizes (out of bounds). The values are exact. Declared again (in a
//! loop), the array keeps its words, which C leaves indeterminate anyway. An array of structs
//! (`Cand mine[2]`) is one word per scalar member like any record array (`record.rs`): the
//! last dimension holds the words, and a record's place in it stays without the row, which
//! its reads and writes put in front.

use super::{convert, record, strip, Binding, Elem, Lx, Node, NodeKind, Ty, R};
use crate::kpl::ast::{Expr, Space, StmtKind, Width, WriteMode};

impl<'a> Lx<'a> {
    /// Hook of `declaration`: the thread-local array `v` (`name`, clang id `id`) of `elem`s
    /// with the sizes `dims`, and its initializer's writes.
    pub(super) fn private_array(
        &mut self,
        v: &Node,
        (name, id): (&str, &str),
        elem: Elem,
        dims: &[Option<u32>],
    ) -> R<()> {
        if let NodeKind::Var { storage_class: Some(s), .. } = &v.kind {
            // A `static` local lives once per program, not per thread.
            return Err(self.unsupported(format!("a `{s}` array inside a function"), v));
        }
        let sizes: Vec<u32> = dims
            .iter()
            .map(|d| {
                d.filter(|d| *d > 0)
                    .ok_or_else(|| self.unsupported("a thread-local array of unknown size", v))
            })
            .collect::<R<_>>()?;
        let kpl = self.declare(name);
        let span = self.span_of(v).unwrap_or(self.cur_span);
        let mut full: Vec<Option<u32>> = crate::kpl::THREAD_ROW_DIMS.iter().map(|d| Some(*d)).collect();
        full.extend(sizes.iter().map(|s| Some(*s)));
        self.declare_array(&kpl, name, Space::Shared, &full, &elem, span);
        self.private.insert(kpl.clone());
        self.bindings.insert(
            id.to_string(),
            Binding::Array { kpl: kpl.clone(), elem: elem.clone(), rank: sizes.len() },
        );
        // An array of structs is default-constructed, which initializes nothing.
        let Some(init) = v.children.first().filter(|c| !super::is_default_construction(c)) else {
            return Ok(());
        };
        if init.kind != NodeKind::InitList {
            return Err(self.unsupported("this initializer of a thread-local array", init));
        }
        // C++ evaluates a brace list's elements in order and gives the others zero; clang's
        // list is fully braced (elided braces restored), one list per dimension.
        let mut values = Vec::new();
        self.init_values(init, &sizes, &elem, &mut values)?;
        // Words, not elements: a record's words extend the last dimension.
        let mut words = sizes.clone();
        if let Some(last) = words.last_mut() {
            *last *= elem.words();
        }
        let total: usize = words.iter().map(|s| *s as usize).product();
        for (k, value) in values.into_iter().chain(std::iter::repeat(None)).take(total).enumerate() {
            let mut index = Vec::new();
            let mut rest = k;
            for s in words.iter().rev() {
                index.push(Expr::Const((rest % *s as usize) as u32));
                rest /= *s as usize;
            }
            index.reverse();
            let value = value.unwrap_or(Expr::Const(0));
            let index = self.row_index(&kpl, index);
            self.emit(StmtKind::Write {
                array: kpl.clone(),
                index,
                value,
                width: Width::ONE,
                mode: WriteMode::Plain,
            });
        }
        Ok(())
    }

    /// The values of the brace list `list` for a block of `sizes` of `elem`s, word by word in
    /// row-major order; `None` for a word the list does not give (zero). Evaluated here, in
    /// order.
    fn init_values(&mut self, list: &Node, sizes: &[u32], elem: &Elem, out: &mut Vec<Option<Expr>>) -> R<()> {
        let block = sizes.iter().map(|s| *s as usize).product::<usize>() * elem.words() as usize;
        let start = out.len();
        let Some((&outer, inner)) = sizes.split_first() else {
            return Err(self.unsupported("this initializer of a thread-local array", list));
        };
        if list.children.len() > outer as usize {
            return Err(self.unsupported("more initializers than elements", list));
        }
        for item in &list.children {
            if inner.is_empty() {
                match elem {
                    Elem::Scalar(t) => {
                        let e = self.rvalue_as(item, *t)?;
                        out.push(Some(e));
                    }
                    Elem::Record(layout) => {
                        let vals = self.record_values(item, layout)?;
                        let tys = layout.fields.iter().map(|(_, m)| record::member_ty(m));
                        for (v, t) in vals.into_iter().zip(tys) {
                            let record::Val::Scalar(e, et) = v else {
                                return Err(self
                                    .unsupported("a thread-local array of structs holding pointers", item));
                            };
                            out.push(Some(convert(e, et, t)));
                        }
                    }
                }
            } else if strip(item).kind == NodeKind::InitList {
                self.init_values(strip(item), inner, elem, out)?;
            } else {
                return Err(self.unsupported("this initializer of a row of a thread-local array", item));
            }
        }
        out.resize(start + block, None);
        Ok(())
    }

    /// `index` into `array`, behind the thread's row when `array` is a thread-local array.
    pub(super) fn row_index(&self, array: &str, index: Vec<Expr>) -> Vec<Expr> {
        if !self.private.contains(array) {
            return index;
        }
        let mut full = crate::kpl::thread_row();
        full.extend(index);
        full
    }

    /// The array element `n` denotes (`a[i][j]`, `*p`, `*(p + i)`, a reference bound to an
    /// element, a scalar kept in memory), its indices evaluated, the thread's row in front for a
    /// thread-local array, a row pointer's outer indices in front ([`Self::in_memory`]).
    pub(super) fn element(&mut self, n: &Node) -> R<(String, Vec<Expr>, Ty)> {
        let (array, index, ty) = self.place(n)?;
        let (array, index) = self.in_memory(array, index);
        Ok((array, index, ty))
    }

    /// [`Self::element`] without the thread's row (what a reference keeps: the row is put in
    /// front where it is used, so the verifier sees it whole).
    pub(super) fn place(&mut self, n: &Node) -> R<(String, Vec<Expr>, Ty)> {
        match self.binding(strip(n)) {
            Some(Binding::Ref { array, index, ty }) => Ok((array, index, ty)),
            // A `__shared__` or namespace-scope scalar (`atomicAdd(&count, 1)`): its one element.
            Some(Binding::Cell { kpl, ty }) => Ok((kpl, vec![Expr::Const(0)], ty)),
            _ => self.element_in(n),
        }
    }
}
