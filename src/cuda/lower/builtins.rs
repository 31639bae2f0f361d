//! Built-in calls that touch memory or the output: `__ldg` and the cache-hinted loads and
//! stores, texture and surface fetches, `printf`, `assert`.
//!
//! Modelling (docs/cuda.md, "Calls"): `__ldg(p)` is a read of `*p`, `__stcg(p, v)` a write;
//! a texture or surface fetch is an arbitrary value (read-only memory no thread of the grid
//! writes: no access the race check could see, and no value the oracle could rely on); `printf`
//! evaluates its arguments (a `%s` argument's characters are not modelled as reads); `assert(e)`
//! evaluates `e` (its reads are accesses) and assumes nothing.

use super::*;

/// Read-only texture and surface fetches (result: the fetched value).
const FETCHES: &[&str] = &[
    "tex1Dfetch",
    "tex1D",
    "tex2D",
    "tex3D",
    "tex1DLayered",
    "tex2DLayered",
    "texCubemap",
    "texCubemapLayered",
    "tex1DLod",
    "tex2DLod",
    "tex3DLod",
    "tex1DLayeredLod",
    "tex2DLayeredLod",
    "texCubemapLod",
    "tex1DGrad",
    "tex2DGrad",
    "tex3DGrad",
    "tex1DLayeredGrad",
    "tex2DLayeredGrad",
    "tex2Dgather",
    "surf1Dread",
    "surf2Dread",
    "surf3Dread",
    "surf1DLayeredread",
    "surf2DLayeredread",
    "surfCubemapread",
    "surfCubemapLayeredread",
];

/// Surface stores: memory the kernel writes through a handle we cannot follow.
const SURFACE_WRITES: &[&str] = &[
    "surf1Dwrite",
    "surf2Dwrite",
    "surf3Dwrite",
    "surf1DLayeredwrite",
    "surf2DLayeredwrite",
    "surfCubemapwrite",
    "surfCubemapLayeredwrite",
];

const LOADS: &[&str] = &["__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"];
const STORES: &[&str] = &["__stcg", "__stcs", "__stwb", "__stwt"];

/// Whether `f<T>(…)` names a built-in that takes a type argument (`tex2D<float>(obj, x, y)`).
pub(super) fn takes_type_argument(f: &str) -> bool {
    FETCHES.contains(&f)
}

impl<'t> Lx<'_, 't> {
    /// The result type of a built-in call, judged without lowering it.
    pub(super) fn builtin_type(&self, n: Node, f: &str) -> Option<Ty> {
        if LOADS.contains(&f) {
            let arg = self.args(n).first().copied()?;
            return Some(self.static_type(arg));
        }
        if FETCHES.contains(&f) {
            return Some(self.fetch_type(n, f));
        }
        None
    }

    /// The element type of a fetch: its template argument, else the texture reference's
    /// declared element type, else a float word.
    fn fetch_type(&self, n: Node, _f: &str) -> Ty {
        let callee = n.child_by_field_name("function");
        if let Some(targ) = callee
            .filter(|c| c.kind() == "template_function")
            .and_then(|c| c.child_by_field_name("arguments"))
            .and_then(|a| a.named_child(0))
            .and_then(|d| d.child_by_field_name("type"))
        {
            return self.ty(targ).unwrap_or(Ty::Float);
        }
        let first = self.args(n).first().map(|a| text(*a, self.src));
        first
            .and_then(|name| self.prog.textures.iter().find(|(t, _)| t == name))
            .and_then(|(_, e)| self.ty(*e).ok())
            .unwrap_or(Ty::Float)
    }

    /// Lowers a built-in call (`None`: `fname` is not one).
    pub(super) fn builtin_call(
        &mut self,
        n: Node,
        fname: &str,
        _targs: Option<Node>,
        args: &[Node],
        used: bool,
    ) -> Option<R<Option<(Expr, Ty)>>> {
        let arity = |k: usize| super::arity(fname, args, k, k, n);
        if LOADS.contains(&fname) {
            return Some((|| {
                arity(1)?;
                let (array, elem, index) = self.pointer(args[0])?;
                let t = self.temp(None);
                self.emit(StmtKind::Read { dst: t.clone(), array, index });
                Ok(Some((Expr::Var(t), elem)))
            })());
        }
        if STORES.contains(&fname) {
            return Some((|| {
                arity(2)?;
                let (array, elem, index) = self.pointer(args[0])?;
                let (v, t) = self.expr(args[1])?;
                self.emit(StmtKind::Write { array, index, value: convert(v, t, elem) });
                Ok(None)
            })());
        }
        if SURFACE_WRITES.contains(&fname) {
            return Some(Err(unsupported(format!("the surface store `{fname}`"), n).with_note(
                "surface memory written by the kernel is not modelled (texture and surface reads are)",
            )));
        }
        if FETCHES.contains(&fname) {
            return Some((|| {
                let ty = self.fetch_type(n, fname);
                // The legacy surface API stores through its first argument: `surf2Dread(&v, s, x, y)`.
                let out = self.fetch_stores_through_first(fname, args);
                self.fetch_coordinates(args, out)?;
                if out {
                    let t = self.temp(None);
                    let ty = self.static_pointee(args[0]);
                    self.store_through(args[0], Expr::Var(t), ty)?;
                    return Ok(None);
                }
                Ok(used.then(|| (Expr::Var(self.temp(None)), ty)))
            })());
        }
        match fname {
            "printf" => Some((|| {
                for a in args {
                    let a = strip_parens(*a);
                    if matches!(a.kind(), "string_literal" | "concatenated_string" | "raw_string_literal")
                        || self.is_pointer(a)
                    {
                        continue;
                    }
                    self.expr(a)?;
                }
                Ok(used.then(|| (Expr::Var(self.temp(None)), Ty::Int)))
            })()),
            "assert" => Some((|| {
                arity(1)?;
                self.expr(args[0])?;
                Ok(None)
            })()),
            _ => None,
        }
    }

    /// A fetch whose value is a vector or struct (`float4 c = tex2D(img, x, y)`, `tex2D<uchar4>`):
    /// one arbitrary word per field, like a scalar fetch (`None`: `fname` is no such fetch).
    pub(super) fn fetch_agg(&mut self, fname: &str, args: &[Node], agg: &Agg) -> Option<R<Vec<Expr>>> {
        if !FETCHES.contains(&fname) || self.fetch_stores_through_first(fname, args) {
            return None;
        }
        Some(
            self.fetch_coordinates(args, false)
                .map(|()| (0..agg.fields.len()).map(|_| Expr::Var(self.temp(None))).collect()),
        )
    }

    /// The legacy surface API stores through its first argument: `surf2Dread(&v, s, x, y)`.
    fn fetch_stores_through_first(&self, fname: &str, args: &[Node]) -> bool {
        fname.starts_with("surf") && args.first().is_some_and(|a| self.is_address(*a))
    }

    /// Evaluates a fetch's coordinates (their reads are accesses); the texture reference and a
    /// surface read's destination (`skip_first`) are not values.
    fn fetch_coordinates(&mut self, args: &[Node], skip_first: bool) -> R<()> {
        for (i, a) in args.iter().enumerate() {
            let name = text(*a, self.src);
            let texture_ref =
                self.lookup(name).is_none() && self.prog.textures.iter().any(|(t, _)| t == name);
            if texture_ref || (skip_first && i == 0) {
                continue;
            }
            self.expr(*a)?;
        }
        Ok(())
    }

    /// Whether `n` is an address `&x`.
    pub(super) fn is_address(&self, n: Node) -> bool {
        let n = strip_parens(n);
        n.kind() == "pointer_expression" && n.child_by_field_name("operator").is_some_and(|o| o.kind() == "&")
    }

    /// The type of what the pointer expression `p` points at, judged without lowering.
    fn static_pointee(&self, p: Node) -> Ty {
        let p = strip_parens(p);
        match p.child_by_field_name("argument") {
            Some(a) if self.is_address(p) => self.static_type(a),
            _ => self.static_type(p),
        }
    }

    /// Stores `value` (of type `ty`) where the pointer argument `p` points: `&x` of a local, `&v.f`
    /// of a vector/struct field, or an array element.
    pub(super) fn store_through(&mut self, p: Node, value: Expr, ty: Ty) -> R<()> {
        let p = strip_parens(p);
        let target =
            self.is_address(p).then(|| p.child_by_field_name("argument")).flatten().map(strip_parens);
        if let Some((var, vty)) = target.and_then(|t| self.lvalue_is_var(t)) {
            self.emit(StmtKind::Assign { name: var, value: convert(value, ty, vty) });
            return Ok(());
        }
        if let Some(t) = target.filter(|t| t.kind() == "field_expression") {
            match self.field_target(t)? {
                Some(Target2::Var(v, vty)) => {
                    self.emit(StmtKind::Assign { name: v, value: convert(value, ty, vty) });
                    return Ok(());
                }
                Some(Target2::Mem(array, index, ety)) => {
                    self.emit(StmtKind::Write { array, index, value: convert(value, ty, ety) });
                    return Ok(());
                }
                None => {}
            }
        }
        let (array, elem, index) = self.pointer(p)?;
        self.emit(StmtKind::Write { array, index, value: convert(value, ty, elem) });
        Ok(())
    }
}
