//! Thread-local arrays of pointers (`float *bufs[2] = {a, b};`, `bufs[k & 1][t]`,
//! `bufs[i] = p;`): one pointer offset local per element, every element pointing into the one
//! array the pointer groups give the array of pointers (`pointer_groups.rs` joins it with the
//! arrays its initializer and its assignments name), or into the one array its initializer
//! names.
//!
//! Element `e` read as a pointer is the `?:` chain over the element locals by `e` (C's value:
//! the pointer stored there); `bufs[e] = p` assigns each element local `k` the new offset where
//! `e == k`. A subscript that is not a constant also touches the element in a thread-local
//! array of the same size (`bufs`, a row per thread, never read for its value), so the
//! verifier checks it against the declared size exactly as it checks any thread-local array's
//! subscript: an index past the array is reported, never silently taken as another element.

use super::{strip, Binding, Elem, Lx, Node, NodeKind, R};
use crate::kpl::ast::{BinOp, Expr, Space, StmtKind, Width, WriteMode};

/// The most elements a thread-local array of pointers may have (each is a local, and each
/// read a `?:` chain over them).
const MAX_POINTER_ARRAY: u32 = 16;

impl Lx<'_> {
    /// Hook of `declaration`: the thread-local array of pointers `v` (`name`, id `id`) to
    /// `pointee`s, of `dims`. `None`: its elements are no pointers.
    pub(super) fn pointer_array_local(
        &mut self,
        v: &Node,
        (name, id): (&str, &str),
        elem_ty: &str,
        dims: &[Option<u32>],
    ) -> Option<R<()>> {
        let pointee = super::pointee(elem_ty)?;
        Some((|| {
            let count = match dims {
                [Some(n)] if (1..=MAX_POINTER_ARRAY).contains(n) => *n,
                _ => {
                    return Err(self.unsupported(
                        format!("an array of pointers other than one dimension of at most {MAX_POINTER_ARRAY} elements"),
                        v,
                    ))
                }
            };
            if let NodeKind::Var { storage_class: Some(s), .. } = &v.kind {
                return Err(self.unsupported(format!("a `{s}` array of pointers"), v));
            }
            let init = v.children.first().filter(|c| !super::is_default_construction(c));
            let items: Vec<&Node> = match init {
                Some(list) if strip(list).kind == NodeKind::InitList => strip(list).children.iter().collect(),
                Some(other) => {
                    return Err(self.unsupported("this initializer of an array of pointers", other))
                }
                None => Vec::new(),
            };
            if items.len() > count as usize {
                return Err(self.unsupported("more initializers than elements", v));
            }
            // The array every element points into: the group's, else the one array the
            // initializer names.
            let mut target = self.ptr_groups.variable(id);
            let mut offsets = Vec::new();
            for item in &items {
                let (array, elem, off) = self.pointer(item)?;
                match &target {
                    Some((a, e)) if *a != array || *e != elem => {
                        return Err(self.unsupported(
                            "an array of pointers into different arrays (or of different element types)",
                            item,
                        ))
                    }
                    Some(_) => {}
                    None => target = Some((array, elem)),
                }
                offsets.push(Some(off));
            }
            let Some((array, elem)) = target else {
                return Err(self.unsupported("an array of pointers never given an array", v));
            };
            if self.elem_of(pointee).is_some_and(|e| e != elem) && !items.is_empty() {
                return Err(self.unsupported("an array of pointers to another element type", v));
            }
            offsets.resize(count as usize, None);
            let mut locals = Vec::new();
            for (k, off) in offsets.into_iter().enumerate() {
                let local = self.fresh(&format!("{name}_{k}_at"));
                // An element the list leaves out is a null pointer: using it is undefined, so
                // its offset is left unknown.
                self.emit(StmtKind::Local { name: local.clone(), init: off });
                locals.push(local);
            }
            let shadow = self.declare(name);
            let span = self.span_of(v).unwrap_or(self.cur_span);
            let mut full: Vec<Option<u32>> = crate::kpl::THREAD_ROW_DIMS.iter().map(|d| Some(*d)).collect();
            full.push(Some(count));
            self.declare_array(&shadow, name, Space::Shared, &full, &Elem::Scalar(super::Ty::Int), span);
            self.private.insert(shadow.clone());
            self.bindings.insert(id.to_string(), Binding::PtrArray { array, elem, offsets: locals, shadow });
            Ok(())
        })())
    }

    /// `bufs[e]` of a thread-local array of pointers `bufs`: the array, element and offset of
    /// the pointer stored there. `None`: `n` is no such subscript.
    pub(super) fn pointer_array_element(&mut self, n: &Node) -> Option<R<(String, Elem, Expr)>> {
        let (base, index) = match (&n.kind, n.children.as_slice()) {
            (NodeKind::ArraySubscript, [b, i]) => (strip(b), i),
            _ => return None,
        };
        let Some(Binding::PtrArray { array, elem, offsets, shadow }) = self.binding(base) else {
            return None;
        };
        Some(self.pointer_array_index(index, &offsets, &shadow, false).map(|k| {
            let chain = match k {
                Chosen::At(k) => Expr::var(&offsets[k]),
                Chosen::By(e) => select_chain(&e, &offsets),
            };
            (array, elem, chain)
        }))
    }

    /// `bufs[e] = p`: the element locals where `e` is their index take `p`'s offset; `p` must
    /// point into the elements' array. `None`: `lhs` is no element of an array of pointers.
    pub(super) fn pointer_array_store(&mut self, lhs: &Node, rhs: &Node, n: &Node) -> Option<R<()>> {
        let (base, index) = match (&strip(lhs).kind, strip(lhs).children.as_slice()) {
            (NodeKind::ArraySubscript, [b, i]) => (strip(b), i),
            _ => return None,
        };
        let Some(Binding::PtrArray { array, elem, offsets, shadow }) = self.binding(base) else {
            return None;
        };
        Some((|| {
            // C++17 evaluates the right side of `=` first.
            let (to, to_elem, off) = self.pointer(rhs)?;
            if to != array || to_elem != elem {
                return Err(self.unsupported("an array of pointers given a pointer into another array", n));
            }
            let value = Expr::var(&self.temp(Some(off)));
            match self.pointer_array_index(index, &offsets, &shadow, true)? {
                Chosen::At(k) => {
                    self.emit(StmtKind::Assign { name: offsets[k].clone(), value });
                }
                Chosen::By(e) => {
                    for (k, local) in offsets.iter().enumerate() {
                        let hit = Expr::bin(BinOp::Eq, e.clone(), Expr::Const(k as u32));
                        let kept =
                            Expr::Select(Box::new(hit), Box::new(value.clone()), Box::new(Expr::var(local)));
                        self.emit(StmtKind::Assign { name: local.clone(), value: kept });
                    }
                }
            }
            Ok(())
        })())
    }

    /// The element an index names: a constant inside the array, or a value (held in a local),
    /// whose access of the shadow array lets the verifier check its bounds.
    fn pointer_array_index(
        &mut self,
        index: &Node,
        offsets: &[String],
        shadow: &str,
        write: bool,
    ) -> R<Chosen> {
        let (e, _) = self.rvalue(index)?;
        if let Expr::Const(k) = e {
            if (k as usize) < offsets.len() {
                return Ok(Chosen::At(k as usize));
            }
        }
        let e = Expr::var(&self.temp(Some(e)));
        let at = self.row_index(shadow, vec![e.clone()]);
        if write {
            self.emit(StmtKind::Write {
                array: shadow.to_string(),
                index: at,
                value: Expr::Const(0),
                width: Width::ONE,
                mode: WriteMode::Plain,
            });
        } else {
            let dst = self.temp(None);
            self.emit(StmtKind::Read { dst, array: shadow.to_string(), index: at, width: Width::ONE });
        }
        Ok(Chosen::By(e))
    }
}

/// Which element an index names.
enum Chosen {
    /// A constant index inside the array.
    At(usize),
    /// The value of an index: any element.
    By(Expr),
}

/// `e == 0 ? o0 : e == 1 ? o1 : … : o_last` (an index past the array is reported by the
/// shadow array's access, so the last element stands for it here).
fn select_chain(e: &Expr, offsets: &[String]) -> Expr {
    let mut chain = Expr::var(offsets.last().map_or("", String::as_str));
    for (k, o) in offsets.iter().enumerate().rev().skip(1) {
        let hit = Expr::bin(BinOp::Eq, e.clone(), Expr::Const(k as u32));
        chain = Expr::Select(Box::new(hit), Box::new(Expr::var(o)), Box::new(chain));
    }
    chain
}
