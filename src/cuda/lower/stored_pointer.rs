//! Pointers stored in shared memory: a `__shared__ float *base;` that thread 0 publishes, and
//! pointer members of structs held there (`__shared__ Views v; v.src = a;`).
//!
//! The stored word is the pointer's offset: storing writes it (`base = data + k` is a write of
//! `base[0]`), using the pointer reads it (a read, checked for races like any other, whose
//! value is what memory holds — unknown to the verifier, one value per block when no race
//! changes it, docs/semantics.md). What a stored pointer points into must be known statically:
//! each stored place (`base`; a member of every element of a struct array) is given one array,
//! by the first store in the program's order (`Lx::member_arrays`, as a struct's pointer
//! member in locals); a store of a pointer into another array is refused, and so is a use
//! before any store (its array is not known). Sound because shared memory starts with no
//! pointer in it: every pointer a defined read returns was stored by the kernel, into that
//! array. Pointers in global memory may have been stored by the host, into arrays the kernel
//! never names, so they stay refused; so do pointer members of structs in thread-local arrays,
//! whose offsets, read back as unknowns per thread, would make every access through them race.

use super::{record, strip, Binding, Elem, Lx, Node, NodeKind, R};
use crate::kpl::ast::{Builtin, Expr, Space, StmtKind, Width, WriteMode};
use std::collections::{HashMap, HashSet};

/// How many times a kernel is lowered again because a read took a stored pointer's one value
/// that a later store contradicted (each time one more place is read from memory instead).
pub(super) const MAX_RELOWERINGS: usize = 8;

/// The offsets stored pointers are given, per place (`Stored::key`): `Some(e)` while every store
/// seen so far stored the block-invariant expression `e`, `None` once one stored anything else.
/// A read of a place whose stores all store one block-invariant value `e` returns `e` in every
/// defined execution (shared memory holds no pointer the kernel did not store, and every store
/// stored `e`, the same number in the whole block), so the read's offset is `e` itself — exact,
/// also across blocks, where the value read from memory would be unknown per block. A read
/// lowered before a store that contradicts it is a conflict: the kernel is lowered again with
/// that place read from memory (`unknown`).
pub(super) struct StoredValues {
    values: HashMap<String, Option<Expr>>,
    assumed: HashMap<String, Expr>,
    unknown: HashSet<String>,
}

impl StoredValues {
    /// No store seen yet; the places in `unknown` are always read from memory.
    pub(super) fn new(unknown: HashSet<String>) -> Self {
        StoredValues { values: HashMap::new(), assumed: HashMap::new(), unknown }
    }

    /// The places whose value a read assumed and a store (before or after it) contradicted.
    pub(super) fn conflicts(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .assumed
            .iter()
            .filter(|(k, e)| self.values.get(*k).and_then(Option::as_ref) != Some(*e))
            .map(|(k, _)| k.clone())
            .collect();
        keys.sort();
        keys
    }
}

/// Where a stored pointer lives: the array and indices of its word, what it points to, and
/// the key its array is fixed under.
struct Stored {
    array: String,
    index: Vec<Expr>,
    elem: Elem,
    key: String,
}

impl Lx<'_> {
    /// Hook of `declaration`: `__shared__ T *p;` (`name`, id `id`) as a one-word shared array
    /// holding the offset. `None`: `ty` is no pointer.
    pub(super) fn shared_pointer_local(
        &mut self,
        v: &Node,
        (name, id): (&str, &str),
        ty: &str,
    ) -> Option<R<()>> {
        let pointee = super::pointee(ty)?;
        Some((|| {
            let Some(elem) = self.elem_of(pointee) else {
                return Err(self.unsupported(format!("a `__shared__` pointer to `{pointee}`"), v));
            };
            let kpl = self.declare(name);
            let span = self.span_of(v).unwrap_or(self.cur_span);
            self.declare_array(&kpl, name, Space::Shared, &[Some(1)], &Elem::Scalar(super::Ty::Int), span);
            self.cells.insert(kpl.clone());
            // A pointer of a group points into the group's array from the start.
            if let Some((array, group_elem)) = self.ptr_groups.variable(id) {
                if group_elem == elem {
                    self.member_arrays.insert(kpl.clone(), array);
                }
            }
            self.bindings.insert(id.to_string(), Binding::SharedPtr { kpl, elem });
            Ok(())
        })())
    }

    /// The stored pointer `n` names (a `__shared__` pointer, a pointer member of a struct in
    /// shared memory). `None`: `n` is none.
    fn stored_pointer(&mut self, n: &Node) -> Option<R<Stored>> {
        let s = strip(n);
        match &s.kind {
            NodeKind::DeclRef { .. } => match self.binding(s)? {
                Binding::SharedPtr { kpl, elem } => {
                    Some(Ok(Stored { array: kpl.clone(), index: vec![Expr::Const(0)], elem, key: kpl }))
                }
                _ => None,
            },
            NodeKind::Member { .. } if super::pointee(s.ty.as_deref().unwrap_or_default()).is_some() => {
                if self.binding(s).is_some() {
                    return None;
                }
                Some(match self.member(s) {
                    Ok(record::MemberPlace::PointerWord { array, index, elem, member }) => {
                        let space = self.arrays.iter().find(|a| a.name == array).map(|a| a.space);
                        if space != Some(Space::Shared) {
                            return Some(Err(self.unsupported(
                                "a pointer member of a struct in global memory (the host may have stored any pointer there)",
                                n,
                            )));
                        }
                        // A thread's own row: each thread stores its own pointers there, so
                        // the offset read back would be an unknown per thread, a race with
                        // every other thread's access through it.
                        if self.private.contains(&array) {
                            return Some(Err(self.unsupported(
                                "a pointer member of a struct in a thread-local array (its offset would be unknown)",
                                n,
                            )));
                        }
                        // One array per member of the struct type in this array (a member of
                        // a nested struct or of a base is named by its own type: two places
                        // sharing a key only share an array, a refusal at worst).
                        let key = format!("{array}#{member}");
                        Ok(Stored { array, index, elem, key })
                    }
                    Ok(_) => return None,
                    Err(e) => Err(e),
                })
            }
            _ => None,
        }
    }

    /// A stored pointer used as a pointer: its word read, its array the one its stores give.
    /// `None`: `n` is no stored pointer.
    pub(super) fn load_stored_pointer(&mut self, n: &Node) -> Option<R<(String, Elem, Expr)>> {
        let stored = self.stored_pointer(n)?;
        Some(stored.and_then(|st| {
            let Some(array) = self.member_arrays.get(&st.key).cloned() else {
                return Err(self.unsupported(
                    "a pointer stored in memory used before a pointer is stored there (its array is not known)",
                    n,
                ));
            };
            let index = self.row_index(&st.array, st.index);
            let dst = self.temp(None);
            self.emit(StmtKind::Read { dst: dst.clone(), array: st.array, index, width: Width::ONE });
            // Every store so far stored one block-invariant offset: the read returns it.
            if !self.stored.unknown.contains(&st.key) {
                if let Some(Some(e)) = self.stored.values.get(&st.key).cloned() {
                    self.stored.assumed.insert(st.key.clone(), e.clone());
                    return Ok((array, st.elem, e));
                }
            }
            Ok((array, st.elem, Expr::var(&dst)))
        }))
    }

    /// `p = q` of a stored pointer `p`: `q`'s offset written to its word; `q` must point into
    /// the array the place's first store gave it. `None`: `lhs` is no stored pointer.
    pub(super) fn store_pointer(&mut self, lhs: &Node, rhs: &Node, n: &Node) -> Option<R<()>> {
        let stored = self.stored_pointer(lhs)?;
        Some(stored.and_then(|st| {
            let (to, to_elem, off) = self.pointer(rhs)?;
            if self.member_arrays.get(&st.key).is_some_and(|a| *a != to) {
                return Err(self.unsupported(
                    "a pointer stored in memory given a pointer into another array (a stored pointer is into one array)",
                    n,
                ));
            }
            self.fix_member_array(&st.key, &st.elem, to, &to_elem, n)?;
            let value = (!self.stored.unknown.contains(&st.key) && self.block_invariant(&off)).then(|| off.clone());
            let merged = match self.stored.values.get(&st.key) {
                None => value,
                Some(seen) if *seen == value => value,
                Some(_) => None,
            };
            self.stored.values.insert(st.key.clone(), merged);
            let index = self.row_index(&st.array, st.index);
            self.emit(StmtKind::Write {
                array: st.array,
                index,
                value: off,
                width: Width::ONE,
                mode: WriteMode::Plain,
            });
            Ok(())
        }))
    }

    /// Whether `e` has one value in the whole block wherever it is evaluated: constants, the
    /// kernel's parameters (read-only in KPL), the block's index and the launch's sizes.
    fn block_invariant(&self, e: &Expr) -> bool {
        match e {
            Expr::Const(_) => true,
            Expr::Var(v) => self.params.contains(v),
            Expr::Builtin(b) => !matches!(b, Builtin::Tid(_)),
            Expr::Unary(_, a) => self.block_invariant(a),
            Expr::Binary(_, a, b) => self.block_invariant(a) && self.block_invariant(b),
            Expr::Select(c, a, b) => {
                self.block_invariant(c) && self.block_invariant(a) && self.block_invariant(b)
            }
            Expr::Call(..) => false,
        }
    }
}
