//! Range-based `for` over an array whose size is a compile-time constant.
//!
//! `for (T x : a) body` over `a` of `N` elements is C++'s `for (k = 0; k != N; ++k) { T x =
//! a[k]; body }`: lowered as `local k := 0; while (k < N) { x := a[k]; body; k := k + 1; }` with
//! a fresh `k` the source cannot name. A reference declarator (`T &x`, `auto &x`, `const auto
//! &x`, `auto &&x`) binds `x` to the element `a[k]` (`Binding::Ref`: reads and writes of `x` are
//! accesses of `a[k]`; `k` is constant within the body); a value declarator reads the element
//! once per iteration into a local. Supported ranges: thread-local arrays, `__shared__` arrays
//! and file-scope arrays of scalars with a constant first dimension. Anything else — a pointer
//! or array parameter (which C++ does not iterate either: it is a pointer), an `extern
//! __shared__` array, an array a pointer may also point into (its KPL row may be longer),
//! arrays of vectors/structs or rows of a 2-D array, a brace list — is an error at the range.

use super::*;

impl<'t> Lx<'_, 't> {
    pub(super) fn range_for(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        self.scopes.push(HashMap::new());
        let r = self.range_for_inner(n, ctx);
        self.scopes.pop();
        r
    }

    fn range_for_inner(&mut self, n: Node<'t>, ctx: Ctx) -> R<()> {
        let src = self.src;
        if let Some(init) = n.child_by_field_name("initializer") {
            return Err(unsupported("an init-statement in a range-based `for`", init));
        }
        let range = n.child_by_field_name("right").ok_or_else(|| unsupported("range-based `for`", n))?;
        let decl = n.child_by_field_name("declarator").ok_or_else(|| unsupported("range-based `for`", n))?;
        let ty_node = n.child_by_field_name("type").ok_or_else(|| unsupported("range-based `for`", n))?;
        let body_node = n.child_by_field_name("body").ok_or_else(|| unsupported("range-based `for`", n))?;
        let (kpl, elem, prefix, len) = self.range_array(range)?;
        let by_ref = decl.kind() == "reference_declarator";
        let name = if by_ref { decl.named_child(0) } else { Some(decl) };
        let Some(name) = name.filter(|x| x.kind() == "identifier") else {
            return Err(unsupported(format!("the range-based `for` declarator `{}`", text(decl, src)), decl));
        };
        let cname = text(name, src).to_string();
        let ty = match text(ty_node, src).trim() {
            "auto" | "decltype(auto)" => elem,
            _ if self.agg_type(ty_node).is_some() => {
                return Err(unsupported("a vector or struct loop variable in a range-based `for`", ty_node))
            }
            _ => self.ty(ty_node)?,
        };
        if by_ref && ty != elem {
            return Err(unsupported(
                format!("a reference of another type than the elements of `{}`", text(range, src)),
                decl,
            ));
        }
        self.cur_span = span(n);
        let from = self.places.len();
        let k = self.temp(Some(Expr::Const(0)));
        self.mark_from(from, FOR_HEADER);
        let cond = Expr::bin(BinOp::Lt, Expr::var(&k), Expr::Const(len));
        let (brk, cont) = self.loop_flags(body_node);
        let index = {
            let mut i = prefix;
            i.push(Expr::var(&k));
            i
        };
        let k2 = k.clone();
        let mut head = |s: &mut Self| {
            s.cur_span = span(decl);
            if by_ref {
                let b = Binding::Ref { array: kpl.clone(), elem, index: index.clone(), agg: None };
                s.bind(&cname, b);
                return Ok(());
            }
            let t = s.temp(None);
            s.emit(StmtKind::Read { dst: t.clone(), array: kpl.clone(), index: index.clone() });
            s.declare_var(&cname, ty, Some(convert(Expr::Var(t), elem, ty)));
            Ok(())
        };
        let mut tail = |s: &mut Self| {
            s.cur_span = span(n);
            let a = s.emit(StmtKind::Assign {
                name: k2.clone(),
                value: Expr::bin(BinOp::Add, Expr::var(&k2), Expr::Const(1)),
            });
            s.set_place(a, Place::Not(FOR_HEADER.into()));
            Ok(())
        };
        self.emit_loop(n, ctx, body_node, (brk, cont), cond, (&mut head, &mut tail))
    }

    /// The array a range-based `for` iterates: its KPL array, element type, the leading index
    /// components the C name does not write, and its number of elements.
    fn range_array(&mut self, range: Node) -> R<(String, Ty, Vec<Expr>, u32)> {
        let src = self.src;
        let r = strip_parens(range);
        let shown = text(r, src);
        let no_size = |why: &str| {
            unsupported(format!("a range-based `for` over `{shown}`: {why}"), r)
                .with_note("only arrays with a compile-time size are iterated (thread-local, `__shared__` or file-scope); write an index loop")
        };
        if r.kind() != "identifier" {
            return Err(no_size("not the name of an array"));
        }
        self.bring_file_array(shown);
        let (kpl, elem, ndims, prefix) = match self.lookup(shown).cloned() {
            Some(Binding::Array { kpl, elem, ndims, scalar: false, prefix }) => (kpl, elem, ndims, prefix),
            Some(Binding::Ptr { .. }) | Some(Binding::Var { .. }) => {
                return Err(no_size("a pointer has no size (an array parameter is a pointer too)"))
            }
            _ => return Err(no_size("not an array")),
        };
        if self.agg_arrays.contains_key(&kpl) {
            return Err(no_size("its elements are vectors or structs"));
        }
        if ndims != 1 {
            return Err(no_size("its elements are arrays (rows)"));
        }
        if self.extern_shared.as_ref().is_some_and(|(k, _)| *k == kpl) {
            return Err(no_size("the size of `extern __shared__` memory is chosen at launch"));
        }
        let thread_row =
            prefix.len() == 3 && prefix.iter().all(|e| matches!(e, Expr::Builtin(Builtin::Tid(_))));
        if !prefix.is_empty() && !thread_row {
            return Err(no_size("a pointer may point into it or another array, so its size is not tracked"));
        }
        let decl = self.arrays.iter().find(|a| a.name == kpl);
        let dims = decl.map(|a| a.dims.clone()).unwrap_or_default();
        let global = decl.is_some_and(|a| a.space == Space::Global);
        match dims.get(prefix.len()) {
            Some(Some(len)) if dims.len() == prefix.len() + 1 => Ok((kpl, elem, prefix, *len)),
            Some(None) if global => Err(no_size(
                "a pointer parameter has no size (C++ does not iterate one either; `float a[8]` is a pointer too)",
            )),
            _ => Err(no_size("its size is not known at compile time")),
        }
    }
}
