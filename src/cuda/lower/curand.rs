//! The cuRAND device API (`curand_kernel.h`) in the clang lowering: generator states and the
//! functions that draw from them, modelled as docs/cuda.md says (
//! "cuRAND").
//!
//! - A state type (`curandState`, `curandStatePhilox4_32_10_t`, …) is a struct of one opaque
//!   word (`rng`): a local state is thread-private, an element of a `curandState *` array is
//!   one word of that array, and copies are reads and writes like any struct's.
//! - `curand_init(seed, seq, offset, st)` evaluates its scalar arguments and writes the state
//!   `st` points at; every other function (`skipahead*`, `curand`, `curand_uniform4`, …)
//!   reads and writes it.
//! - A generated value is unknown (a fresh value-less local per call and per word), so the
//!   oracle never relies on it. Sobol and MTGP32 states are not modelled: refused by name.

use super::record::{Layout, Member, Place};
use super::{strip, Binding, Elem, Lx, Node, NodeKind, Ty, R};
use crate::kpl::ast::{Expr, StmtKind};
use std::rc::Rc;

/// The state types the model covers (with and without the `_t` typedefs).
const CURAND_STATES: &[&str] = &[
    "curandState",
    "curandState_t",
    "curandStateXORWOW",
    "curandStateXORWOW_t",
    "curandStatePhilox4_32_10",
    "curandStatePhilox4_32_10_t",
    "curandStateMRG32k3a",
    "curandStateMRG32k3a_t",
];

/// The one-word layout of a cuRAND state type named `name` (qualifiers stripped).
pub(super) fn state_layout(name: &str) -> Option<Layout> {
    CURAND_STATES.contains(&name).then(|| Layout {
        name: name.to_string(),
        fields: vec![("rng".to_string(), Member::Scalar(Ty::UInt))],
        aliases: Vec::new(),
        arrays: Vec::new(),
        unions: false,
    })
}

/// Whether `name` is one of the cuRAND functions that use a state.
fn is_curand_function(name: &str) -> bool {
    name.starts_with("curand") || name.starts_with("skipahead")
}

impl Lx<'_> {
    /// A call of a cuRAND function: its effect on the state, and one unknown value per word of
    /// its result (none for `void`). `None`: not a cuRAND call with a state argument.
    pub(super) fn curand_call(&mut self, n: &Node, name: &str) -> Option<R<Vec<(Expr, Ty)>>> {
        if !is_curand_function(name) {
            return None;
        }
        let args = &n.children[1.min(n.children.len())..];
        let is_state = |lx: &Self, a: &Node| {
            let t = lx.resolve(a.ty.as_deref().unwrap_or_default());
            super::pointee(&t).is_some_and(|p| state_layout(&super::record::bare(p)).is_some())
        };
        let state = args.iter().position(|a| is_state(self, a))?;
        Some((|| {
            for (i, a) in args.iter().enumerate() {
                if i != state && a.ty.as_deref().and_then(|t| self.scalar_of(t)).is_some() {
                    self.rvalue(a)?;
                }
            }
            let place = self.state_place(&args[state], n)?;
            if name != "curand_init" {
                self.read_record(place.clone(), n)?;
            }
            let u = self.fresh("_rng");
            self.emit(StmtKind::Local { name: u.clone(), init: None });
            self.write_record(place, vec![super::record::Val::Scalar(Expr::var(&u), Ty::UInt)], n)?;
            let ret = self.resolve(n.ty.as_deref().unwrap_or("void"));
            let words: Vec<Ty> = if ret == "void" {
                Vec::new()
            } else if let Some(t) = self.scalar_of(&ret) {
                vec![t]
            } else if let Some(l) = self.layout_of(&ret) {
                l.fields.iter().map(|(_, m)| if let Member::Scalar(t) = m { *t } else { Ty::UInt }).collect()
            } else {
                return Err(self.unsupported(format!("the result of `{name}`"), n));
            };
            let mut vals = Vec::new();
            for t in words {
                let v = self.fresh(&format!("_{name}"));
                self.emit(StmtKind::Local { name: v.clone(), init: None });
                vals.push((Expr::var(&v), t));
            }
            Ok(vals)
        })())
    }

    /// The state a cuRAND state pointer points at: `&s`, `&states[i]`, `states + i`, or a
    /// pointer bound to one.
    fn state_place(&mut self, p: &Node, n: &Node) -> R<Place> {
        let p = strip(p);
        if let NodeKind::Unary { op, .. } = &p.kind {
            if op == "&" {
                return self.record_place(self.only_child(p)?);
            }
        }
        if let Some(Binding::Record(l)) = self.binding(p) {
            return Ok(Place::Locals(l));
        }
        let (array, elem, off) = self.pointer(p)?;
        let Elem::Record(layout) = elem else {
            return Err(self.unsupported("this cuRAND state pointer", n));
        };
        Ok(Place::Memory(Rc::new(super::record::InMemory { array, prefix: Vec::new(), base: off, layout })))
    }
}
