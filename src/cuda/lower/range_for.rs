//! Range-based `for` over an array of known size:
//! `for (T x : a) body` over `a` of `N` elements is C++'s
//! `for (k = 0; k != N; ++k) { T x = a[k]; body }`, lowered as `local k := 0; while (k < N)
//! { x := a[k]; body; k := k + 1; }` with a fresh `k` the source cannot name.
//!
//! clang spells the loop with its hidden `__range`, `__begin` and `__end` variables and declares
//! `x` with `*__begin` as its initializer; that `*__begin` becomes `a[k]`, so the declaration is
//! lowered like any other (a reference declarator binds `x` to the element `a[k]`, a value one
//! reads it once per iteration) and `a[k]` like any element (a thread-local array's row, a
//! pointer group's offset). Only a name of a one-dimensional array whose size is a constant is
//! iterated: a pointer (an array parameter is one) has no size, and a brace list, a member or a
//! container has no array to index.

use super::{array_type, strip, Binding, Lx, Node, NodeKind, Ty, R};

/// The parts of a `CXXForRangeStmt` as clang prints them.
struct Parts<'n> {
    /// The expression after `:` (the initializer of `__range`).
    range: &'n Node,
    /// The id of `__begin`.
    begin: String,
    /// The ids of `__range`, `__begin` and `__end`, which nothing else may read once lowered.
    hidden: Vec<String>,
    /// The loop variable's declaration statement.
    var: &'n Node,
    body: &'n Node,
}

/// The only variable a declaration statement declares, with its id and initializer.
fn only_var(d: &Node) -> Option<(&Node, &str)> {
    if d.kind != NodeKind::DeclStmt {
        return None;
    }
    let [v] = d.children.as_slice() else { return None };
    match &v.kind {
        NodeKind::Var { id, .. } => Some((v, id.as_str())),
        _ => None,
    }
}

fn parts(n: &Node) -> Option<Parts<'_>> {
    let [init, range, begin, end, _cond, _inc, var, body] = n.children.as_slice() else {
        return None;
    };
    if init.kind != NodeKind::Empty {
        return None;
    }
    let (range_var, range_id) = only_var(range)?;
    let (_, begin_id) = only_var(begin)?;
    let (_, end_id) = only_var(end)?;
    only_var(var)?;
    Some(Parts {
        range: range_var.children.first()?,
        begin: begin_id.to_string(),
        hidden: vec![range_id.to_string(), begin_id.to_string(), end_id.to_string()],
        var,
        body,
    })
}

/// `n` with every `*__begin` (`begin` is its id) replaced by `element`.
fn replace_deref(n: &Node, begin: &str, element: &Node) -> Node {
    if let NodeKind::Unary { op, .. } = &n.kind {
        let reads_begin = n
            .children
            .first()
            .map(strip)
            .is_some_and(|c| matches!(&c.kind, NodeKind::DeclRef { decl_id, .. } if decl_id == begin));
        if op == "*" && reads_begin {
            return Node { ty: n.ty.clone(), ..element.clone() };
        }
    }
    Node { children: n.children.iter().map(|c| replace_deref(c, begin, element)).collect(), ..n.clone() }
}

impl<'a> Lx<'a> {
    /// `for (T x : a) body` (a `CXXForRangeStmt`).
    pub(super) fn range_for(&mut self, n: &Node) -> R<()> {
        let Some(p) = parts(n) else {
            return Err(
                self.unsupported("this range-based `for` (an init-statement or several variables)", n)
            );
        };
        let range = strip(p.range);
        let no_size = |lx: &Self, why: &str| {
            lx.unsupported(format!("a range-based `for` over this: {why} (write an index loop)"), p.range)
        };
        if !matches!(range.kind, NodeKind::DeclRef { .. }) {
            return Err(no_size(self, "not the name of an array"));
        }
        let ty = self.resolve(range.ty.as_deref().unwrap_or_default());
        let len = match array_type(&ty) {
            Some((_, dims)) if dims.len() == 1 => match dims[0] {
                Some(len) => len,
                None => return Err(no_size(self, "its size is not known at compile time")),
            },
            Some(_) => return Err(no_size(self, "its elements are arrays (rows)")),
            None => return Err(no_size(self, "a pointer has no size (an array parameter is a pointer too)")),
        };
        // The counter: a declaration of its own that only the lowering refers to.
        let k = self.temp(Some(crate::kpl::ast::Expr::Const(0)));
        let k_id = format!("{}#range-for", p.begin);
        self.bindings.insert(k_id.clone(), Binding::Scalar { kpl: k.clone(), ty: Ty::Int });
        let leaf = |kind: NodeKind| Node {
            kind,
            ty: Some("int".into()),
            desugared: None,
            range: None,
            children: Vec::new(),
        };
        let k_ref = leaf(NodeKind::DeclRef { name: k, decl_id: k_id, decl_kind: "VarDecl".into() });
        let cond = Node {
            kind: NodeKind::Binary { op: "<".into() },
            ty: Some("bool".into()),
            desugared: None,
            range: None,
            children: vec![k_ref.clone(), leaf(NodeKind::IntegerLiteral { value: len.to_string() })],
        };
        let inc = Node {
            kind: NodeKind::Unary { op: "++".into(), postfix: false },
            ty: Some("int".into()),
            desugared: None,
            range: None,
            children: vec![k_ref.clone()],
        };
        let element = Node {
            kind: NodeKind::ArraySubscript,
            ty: None,
            desugared: None,
            range: range.range.clone(),
            children: vec![range.clone(), k_ref],
        };
        let mut head = replace_deref(p.var, &p.begin, &element);
        // The loop variable's statements are the range's (where C++ reads the element).
        head.range = range.range.clone();
        let hidden_read = head
            .walk()
            .into_iter()
            .any(|x| matches!(&x.kind, NodeKind::DeclRef { decl_id, .. } if p.hidden.contains(decl_id)));
        if hidden_read {
            return Err(self.unsupported("this range-based `for`'s loop variable", p.var));
        }
        self.emit_loop(
            n,
            super::LoopParts {
                cond: Some(&cond),
                inc: Some(&inc),
                prologue: Some(&head),
                ..super::LoopParts::new(p.body)
            },
        )
    }
}
