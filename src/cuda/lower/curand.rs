//! The cuRAND device API (`curand_kernel.h`): generator states and the functions that draw
//! from them.
//!
//! Modelling (docs/cuda.md, "cuRAND"):
//! - a state type (`curandState`, `curandStatePhilox4_32_10_t`, `curandStateMRG32k3a`, …) is a
//!   struct of one opaque word: a local `curandState s;` is thread-private, an element of a
//!   `curandState *states` array is one word of that array, so `s = states[id]` and
//!   `states[id] = s` are a read and a write of `states[id]` like any struct copy;
//! - `curand_init(seed, seq, offset, st)` evaluates its scalar arguments and writes the state
//!   `st` points at; `skipahead*` and every generator (`curand`, `curand_uniform`,
//!   `curand_normal2`, `curand_log_normal`, `curand_poisson4`, …) read and write it;
//! - a generated value is unknown (a fresh value-less local per call, per field for the
//!   vector results), so the oracle never relies on it.
//!
//! The state argument is `&s` (a local, or a pointer parameter of an inlined device function
//! bound to one), `&states[i]`, `states + i`, or a pointer local or parameter into a state
//! array: in memory, exactly the element it points at is accessed, so a race on `states[]`
//! is found and two threads using their own elements do not conflict. Sobol and MTGP32 states
//! (direction vectors, one state shared by a block) are not modelled and stay errors naming the type.

use super::*;

/// The state types whose generators the model covers (one list for both front ends).
use crate::clang::lower::CURAND_STATES as STATES;

/// The one word that stands for a whole generator state.
const WORD: &str = "rng";

/// What a cuRAND function returns.
#[derive(Clone, Copy)]
enum Out {
    Nothing,
    Scalar(Ty),
    Vector(&'static str),
}

/// A cuRAND device function: name, result, number of arguments, where the state pointer is
/// (`true`: last, else first), whether it reads the state (`curand_init` only writes it).
struct Fun {
    name: &'static str,
    out: Out,
    args: usize,
    state_last: bool,
    reads: bool,
}

const fn gen(name: &'static str, out: Out, args: usize) -> Fun {
    Fun { name, out, args, state_last: false, reads: true }
}

const FUNS: &[Fun] = &[
    Fun { name: "curand_init", out: Out::Nothing, args: 4, state_last: true, reads: false },
    Fun { name: "skipahead", out: Out::Nothing, args: 2, state_last: true, reads: true },
    Fun { name: "skipahead_sequence", out: Out::Nothing, args: 2, state_last: true, reads: true },
    Fun { name: "skipahead_subsequence", out: Out::Nothing, args: 2, state_last: true, reads: true },
    gen("curand", Out::Scalar(Ty::UInt), 1),
    gen("curand4", Out::Vector("uint4"), 1),
    gen("curand_uniform", Out::Scalar(Ty::Float), 1),
    gen("curand_uniform_double", Out::Scalar(Ty::Float), 1),
    gen("curand_uniform2_double", Out::Vector("double2"), 1),
    gen("curand_uniform4", Out::Vector("float4"), 1),
    gen("curand_uniform4_double", Out::Vector("double4"), 1),
    gen("curand_normal", Out::Scalar(Ty::Float), 1),
    gen("curand_normal_double", Out::Scalar(Ty::Float), 1),
    gen("curand_normal2", Out::Vector("float2"), 1),
    gen("curand_normal2_double", Out::Vector("double2"), 1),
    gen("curand_normal4", Out::Vector("float4"), 1),
    gen("curand_normal4_double", Out::Vector("double4"), 1),
    gen("curand_log_normal", Out::Scalar(Ty::Float), 3),
    gen("curand_log_normal_double", Out::Scalar(Ty::Float), 3),
    gen("curand_log_normal2", Out::Vector("float2"), 3),
    gen("curand_log_normal2_double", Out::Vector("double2"), 3),
    gen("curand_log_normal4", Out::Vector("float4"), 3),
    gen("curand_log_normal4_double", Out::Vector("double4"), 3),
    gen("curand_poisson", Out::Scalar(Ty::UInt), 2),
    gen("curand_poisson4", Out::Vector("uint4"), 2),
];

fn fun(name: &str) -> Option<&'static Fun> {
    FUNS.iter().find(|f| f.name == name)
}

/// The one-word struct a cuRAND state type name stands for.
pub(super) fn state_type(name: &str) -> Option<Agg> {
    STATES.contains(&name).then(|| Agg {
        name: name.to_string(),
        fields: vec![(WORD.to_string(), Ty::UInt)],
        aliases: Vec::new(),
    })
}

/// Whether `name` is a cuRAND state type the model does not cover (for a diagnostic naming it).
pub(super) fn unmodelled_state(name: &str) -> bool {
    name.starts_with("curandState") && !STATES.contains(&name)
}

/// The scalar result type of the cuRAND function `name` (vector results: `None`).
pub(super) fn result_type(name: &str) -> Option<Ty> {
    match fun(name)?.out {
        Out::Scalar(t) => Some(t),
        _ => None,
    }
}

fn is_state(agg: &Agg) -> bool {
    STATES.contains(&agg.name.as_str())
}

impl<'t> Lx<'_, 't> {
    /// A call of a cuRAND device function with a scalar or no result; `None`: not one.
    pub(super) fn curand_call(
        &mut self,
        n: Node,
        fname: &str,
        args: &[Node],
    ) -> Option<R<Option<(Expr, Ty)>>> {
        let f = fun(fname)?;
        Some((|| {
            if let Out::Vector(v) = f.out {
                return Err(unsupported(
                    format!("the {v} result of `{fname}` used as a scalar (assign it to a {v} local)"),
                    n,
                ));
            }
            self.curand_effects(n, f, args)?;
            Ok(match f.out {
                Out::Scalar(t) => Some((Expr::Var(self.temp(None)), t)),
                _ => None,
            })
        })())
    }

    /// A call of a cuRAND function with a vector result taken as `agg`: its unknown fields;
    /// `None`: not such a function.
    pub(super) fn curand_agg_call(&mut self, n: Node, fname: &str, agg: &Agg) -> Option<R<Vec<Expr>>> {
        let f = fun(fname)?;
        let Out::Vector(v) = f.out else { return None };
        Some((|| {
            let want = vector_type(v).ok_or_else(|| unsupported(format!("`{fname}`"), n))?;
            if want.fields != agg.fields {
                return Err(unsupported(format!("the {v} result of `{fname}` used as a {}", agg.name), n));
            }
            let args = self.args(n);
            self.curand_effects(n, f, &args)?;
            Ok(agg.fields.iter().map(|_| Expr::Var(self.temp(None))).collect())
        })())
    }

    /// Evaluates the scalar arguments left to right and reads/writes the state argument.
    fn curand_effects(&mut self, n: Node, f: &Fun, args: &[Node]) -> R<()> {
        arity(f.name, args, f.args, f.args, n)?;
        let at = if f.state_last { args.len() - 1 } else { 0 };
        for (i, a) in args.iter().enumerate() {
            if i == at {
                self.curand_state(args[at], f.reads)?;
            } else {
                self.expr(*a)?;
            }
        }
        Ok(())
    }

    /// The state the pointer `a` points at gets an unknown value (after a read of it in memory
    /// when `reads`).
    fn curand_state(&mut self, a: Node, reads: bool) -> R<()> {
        let a = strip_parens(a);
        let local = match a.kind() {
            "pointer_expression" if !is_deref(a) => {
                a.child_by_field_name("argument").map(strip_parens).filter(|x| x.kind() == "identifier")
            }
            // A pointer parameter of an inlined function bound to a state local.
            "identifier" => Some(a),
            _ => None,
        };
        if let Some(id) = local {
            match self.lookup(text(id, self.src)).cloned() {
                Some(Binding::Agg { agg, comps }) if is_state(&agg) => {
                    for c in comps {
                        let h = self.temp(None);
                        self.emit(StmtKind::Assign { name: c, value: Expr::Var(h) });
                    }
                    return Ok(());
                }
                Some(Binding::Ref { array, index, agg: Some(agg), .. }) if is_state(&agg) => {
                    self.touch_state(&array, &index, reads);
                    return Ok(());
                }
                _ => {}
            }
        }
        let (array, index, agg) = self.agg_pointer(a).map_err(|e| {
            e.with_note("the cuRAND state argument must be `&s` of a state local, `&states[i]`, or a pointer into a state array")
        })?;
        if !is_state(&agg) {
            return Err(unsupported(format!("a pointer to {} as a cuRAND state", agg.name), a));
        }
        let index = element_words(index, &agg);
        self.touch_state(&array, &index, reads);
        Ok(())
    }

    /// The binding of the state local that the argument `&s` (or a pointer parameter already
    /// naming one) passes for a `agg *` parameter, when `agg` is a cuRAND state type.
    pub(super) fn curand_local_arg(&self, a: Node, agg: &Agg) -> Option<Binding> {
        if !is_state(agg) {
            return None;
        }
        let a = strip_parens(a);
        let id = match a.kind() {
            "pointer_expression" if !is_deref(a) => a.child_by_field_name("argument").map(strip_parens)?,
            "identifier" => a,
            _ => return None,
        };
        match self.lookup(text(id, self.src))? {
            b @ Binding::Agg { agg: a2, .. } if a2.fields == agg.fields => Some(b.clone()),
            _ => None,
        }
    }

    fn touch_state(&mut self, array: &str, index: &[Expr], reads: bool) {
        if reads {
            self.read_fields(array, index, 1);
        }
        let v = self.temp(None);
        self.write_fields(array, index, vec![Expr::Var(v)]);
    }
}
