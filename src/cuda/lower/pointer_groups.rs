//! Pointers that may point into more than one array: `float *p = c ? a : b;`, ping-pong
//! buffers (`float *t = in; in = out; out = t;`), `p = a; … p = b;`.
//!
//! A pre-pass over the kernel body joins every pointer variable with the arrays it is ever
//! given (through `?:`, casts, `p + i` and `&a[i]` too). The arrays of one group lower to ONE
//! KPL array in which member `k` occupies the words `k * stride ..` (`stride`: the largest
//! member, or 2^28 words when a member's length is unknown, as for a pointer parameter), so a
//! pointer is a word offset like any other and an access through it touches exactly the
//! element the program touches. Accesses to `a` and `b` by name stay in their rows, which never
//! overlap; an index beyond 2^28 could reach another member's row, which can only add reported
//! races. Members must share the memory space, be one-dimensional and hold the same element
//! type; otherwise no group is formed and the pointer is refused where it is used.

use super::{array_type, pointee, strip, Binding, Elem, Lx, Node, NodeKind};
use crate::kpl::ast::{Expr, Space, StmtKind};
use crate::kpl::SourceArray;
use crate::span::Span;
use std::collections::{BTreeMap, HashMap};

/// Rows of a member of unknown length (see the module comment).
const UNKNOWN_ROW: u32 = 1 << 28;

/// The groups of one kernel: for each member declaration (parameter or `__shared__` array)
/// its group's KPL array and the member's first word.
#[derive(Default)]
pub(super) struct PointerGroups {
    members: HashMap<String, (String, u32)>,
    /// The pointer variables of each group (by declaration id): its array and element.
    variables: HashMap<String, (String, Elem)>,
}

/// One array a pointer may be given: a pointer parameter or a `__shared__` array.
struct Member {
    id: String,
    name: String,
    space: Space,
    words: Option<u32>,
    elem_ty: String,
    /// The parameter is itself re-pointed (a variable whose first value is its array).
    assigned: bool,
}

impl PointerGroups {
    /// The group array and first word of member declaration `id`.
    pub(super) fn member(&self, id: &str) -> Option<(String, u32)> {
        self.members.get(id).cloned()
    }

    /// The group array and element of pointer variable `id`, when it is in a group.
    pub(super) fn variable(&self, id: &str) -> Option<(String, Elem)> {
        self.variables.get(id).cloned()
    }
}

/// The declaration ids a pointer expression may take its array from.
fn roots(n: &Node, out: &mut Vec<String>) {
    let n = strip(n);
    match &n.kind {
        NodeKind::Conditional if n.children.len() == 3 => {
            roots(&n.children[1], out);
            roots(&n.children[2], out);
        }
        NodeKind::ImplicitCast { .. }
        | NodeKind::CStyleCast { .. }
        | NodeKind::StaticCast
        | NodeKind::ReinterpretCast
        | NodeKind::Paren => {
            if let Some(c) = n.children.first() {
                roots(c, out);
            }
        }
        NodeKind::Binary { op } if op == "+" || op == "-" => {
            for c in &n.children {
                if c.ty.as_deref().is_some_and(|t| t.contains('*') || t.contains('[')) {
                    roots(c, out);
                }
            }
        }
        NodeKind::Unary { op, .. } if op == "&" => {
            let mut b = n.children.first().map(strip);
            while let Some(x) = b.filter(|x| x.kind == NodeKind::ArraySubscript) {
                b = x.children.first().map(strip);
            }
            if let Some(x) = b {
                roots(x, out);
            }
        }
        NodeKind::DeclRef { decl_id, .. } => out.push(decl_id.clone()),
        // `{a, b}` of an array of pointers: every element's.
        NodeKind::InitList => {
            for c in &n.children {
                roots(c, out);
            }
        }
        // `*pp` of a pointer to a pointer: what `pp` points to.
        NodeKind::Unary { op, .. }
            if op == "*" && super::pointee(n.ty.as_deref().unwrap_or_default()).is_some() =>
        {
            if let Some(b) = n.children.first() {
                roots(b, out);
            }
        }
        // `bufs[i]` of pointers (its type is a pointer): the array of pointers.
        NodeKind::ArraySubscript if super::pointee(n.ty.as_deref().unwrap_or_default()).is_some() => {
            if let Some(b) = n.children.first() {
                roots(b, out);
            }
        }
        _ => {}
    }
}

/// The variable an assignment's left side names: `p` of `p = …`, and `bufs` of `bufs[i] = …`
/// when `bufs` holds pointers.
fn assigned_variable(lhs: &Node) -> Option<&str> {
    let mut l = strip(lhs);
    if l.kind == NodeKind::ArraySubscript && super::pointee(l.ty.as_deref().unwrap_or_default()).is_some() {
        l = strip(l.children.first()?);
    }
    // `*pp = q` through a pointer to a pointer: `pp`, joined with the variable it points to.
    if matches!(&l.kind, NodeKind::Unary { op, .. } if op == "*")
        && super::pointee(l.ty.as_deref().unwrap_or_default()).is_some()
    {
        l = strip(l.children.first()?);
    }
    match &l.kind {
        NodeKind::DeclRef { decl_id, .. } => Some(decl_id),
        _ => None,
    }
}

fn find(parent: &mut BTreeMap<String, String>, x: &str) -> String {
    let mut cur = x.to_string();
    while let Some(p) = parent.get(&cur).filter(|p| **p != cur).cloned() {
        cur = p;
    }
    cur
}

fn union(parent: &mut BTreeMap<String, String>, a: &str, b: &str) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    parent.entry(ra.clone()).or_insert(ra.clone());
    parent.entry(rb.clone()).or_insert(rb.clone());
    if ra != rb {
        parent.insert(ra, rb);
    }
}

impl Lx<'_> {
    /// Finds the kernel's pointer groups and declares their arrays (before the parameters and
    /// the body bind their members to them).
    pub(super) fn pointer_groups(&mut self, f: &super::Function, body: &Node, at: Span) {
        // Pointer variables: locals of pointer type, and pointer parameters the body re-points.
        let mut variables: HashMap<String, ()> = HashMap::new();
        let mut arrays: Vec<Member> = Vec::new();
        for p in &f.params {
            let ty = self.resolve(p.desugared.as_deref().unwrap_or(&p.ty));
            let Some(elem) = pointee(&ty) else { continue };
            let assigned = super::assigns(body, &p.id);
            if assigned {
                variables.insert(format!("var:{}", p.id), ());
            }
            arrays.push(Member {
                id: p.id.clone(),
                name: p.name.clone(),
                space: Space::Global,
                words: None,
                elem_ty: elem.to_string(),
                assigned,
            });
        }
        let mut parent: BTreeMap<String, String> = BTreeMap::new();
        // The kernel's body and the bodies of the functions it calls (their pointer parameters
        // are variables given the arguments' arrays).
        let mut bodies = vec![body];
        let mut visited = vec![f.id.clone()];
        let mut nodes = Vec::new();
        while let Some(b) = bodies.pop() {
            for n in b.walk() {
                nodes.push(n);
                let (NodeKind::Call { .. } | NodeKind::MemberCall { .. }) = &n.kind else { continue };
                let callee = n.children.first().map(super::strip_callee);
                let id = match callee.map(|c| &c.kind) {
                    Some(NodeKind::DeclRef { decl_id, .. }) => decl_id.clone(),
                    Some(NodeKind::Member { decl: Some(d), .. }) => d.clone(),
                    _ => continue,
                };
                let Some(g) = self.model.definition(&id) else { continue };
                for (p, a) in g.params.iter().zip(&n.children[1..]) {
                    let ty = self.resolve(p.desugared.as_deref().unwrap_or(&p.ty));
                    // A pointer, a reference to one (`float *&p`: the argument's variable) or a
                    // pointer to one (`float **pp` given `&p`).
                    let ty = ty.trim_end().strip_suffix('&').unwrap_or(&ty);
                    if pointee(ty).is_some() || super::pointer_to_pointer(ty) {
                        variables.insert(format!("var:{}", p.id), ());
                        let mut r = Vec::new();
                        roots(a, &mut r);
                        for x in r {
                            union(&mut parent, &format!("var:{}", p.id), &x);
                        }
                    }
                }
                if !visited.contains(&g.id) {
                    visited.push(g.id.clone());
                    if let Some(gb) = g.body.as_ref() {
                        bodies.push(gb);
                        // The pointers a function may return are one value (`return c ? a :
                        // b;`, or one `return` per branch): their arrays join one group, as a
                        // variable's do.
                        for r in gb.walk().into_iter().filter(|r| r.kind == NodeKind::Return) {
                            let Some(e) = r.children.first() else { continue };
                            if e.ty.as_deref().is_some_and(|t| pointee(&self.resolve(t)).is_some()) {
                                let mut roots_of = Vec::new();
                                roots(e, &mut roots_of);
                                let ret = format!("var:ret:{}", g.id);
                                variables.insert(ret.clone(), ());
                                for x in roots_of {
                                    union(&mut parent, &ret, &x);
                                }
                            }
                        }
                    }
                }
            }
        }
        for n in nodes {
            match &n.kind {
                NodeKind::Var { id, name, is_shared, storage_class, .. } => {
                    let ty = self.resolve(n.ty.as_deref().unwrap_or_default());
                    // A local array of pointers is one variable: every element points into
                    // its group (`pointer_array.rs`).
                    let pointers =
                        array_type(&ty).is_some_and(|(e, d)| d.len() == 1 && pointee(&e).is_some());
                    // A pointer to a pointer (`float **pp = &p`) joins the variable it points to.
                    let to_pointer = super::pointer_to_pointer(&ty);
                    if pointee(&ty).is_some() || (pointers && !is_shared) || to_pointer {
                        variables.insert(format!("var:{id}"), ());
                        if let Some(init) = n.children.first() {
                            let mut r = Vec::new();
                            roots(init, &mut r);
                            for x in r {
                                union(&mut parent, &format!("var:{id}"), &x);
                            }
                        }
                    } else if *is_shared && storage_class.as_deref() != Some("extern") {
                        if let Some((elem, dims)) = array_type(&ty) {
                            let words = match dims.as_slice() {
                                [Some(d)] => self.elem_of(&elem).map(|e| d * e.words()),
                                _ => None,
                            };
                            // Only one-dimensional arrays of known size join a group.
                            if words.is_some() {
                                arrays.push(Member {
                                    id: id.clone(),
                                    name: name.clone(),
                                    space: Space::Shared,
                                    words,
                                    elem_ty: elem,
                                    assigned: false,
                                });
                            }
                        }
                    }
                }
                NodeKind::Binary { op } if op == "=" && n.children.len() == 2 => {
                    if let Some(decl_id) = assigned_variable(&n.children[0]) {
                        let mut r = Vec::new();
                        roots(&n.children[1], &mut r);
                        for x in r {
                            union(&mut parent, &format!("var:{decl_id}"), &x);
                        }
                    }
                }
                _ => {}
            }
        }
        // A root naming a pointer variable is that variable; one naming an array is the array;
        // a re-pointed parameter starts as its own array.
        let node = |id: &str| -> String {
            if variables.contains_key(&format!("var:{id}")) {
                format!("var:{id}")
            } else {
                format!("arr:{id}")
            }
        };
        let edges: Vec<(String, String)> = parent.iter().map(|(a, b)| (a.clone(), b.clone())).collect();
        let mut joined: BTreeMap<String, String> = BTreeMap::new();
        for (a, b) in edges {
            let a = if a.starts_with("var:") { a } else { node(&a) };
            let b = if b.starts_with("var:") { b } else { node(&b) };
            union(&mut joined, &a, &b);
        }
        for m in arrays.iter().filter(|m| m.assigned) {
            union(&mut joined, &format!("var:{}", m.id), &format!("arr:{}", m.id));
        }
        let keys: Vec<String> = joined.keys().cloned().collect();
        let mut variables_of: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for k in keys.iter().filter(|k| k.starts_with("var:")) {
            variables_of.entry(find(&mut joined, k)).or_default().push(k["var:".len()..].to_string());
        }
        let mut by_root: BTreeMap<String, Vec<&Member>> = BTreeMap::new();
        for m in &arrays {
            let key = format!("arr:{}", m.id);
            if joined.contains_key(&key) {
                by_root.entry(find(&mut joined, &key)).or_default().push(m);
            }
        }
        for (root, members) in by_root.iter().filter(|(_, m)| m.len() >= 2) {
            let first = members[0];
            let elem = self.elem_of(&first.elem_ty);
            let same = members
                .iter()
                .all(|m| m.space == first.space && self.elem_of(&m.elem_ty) == elem && elem.is_some());
            let Some(elem) = elem.filter(|_| same) else { continue };
            let stride = members.iter().try_fold(0u32, |acc, m| m.words.map(|w| acc.max(w)));
            let stride = stride.unwrap_or(UNKNOWN_ROW);
            let total = stride.checked_mul(members.len() as u32);
            let Some(total) = total.filter(|_| members.len() < 16) else { continue };
            let names: Vec<String> = members.iter().map(|m| m.name.clone()).collect();
            let kpl = self.fresh(&names.join("_or_"));
            self.arrays.push(crate::kpl::ast::ArrayDecl {
                name: kpl.clone(),
                space: first.space,
                dims: vec![Some(total)],
                span: at,
            });
            let fields = match &elem {
                Elem::Record(l) => l.fields.iter().map(|(p, _)| p.clone()).collect(),
                Elem::Scalar(_) => Vec::new(),
            };
            self.source_arrays.push((
                kpl.clone(),
                SourceArray { names, scalar: false, fields, member_stride: u64::from(stride), parts: 1 },
            ));
            for (k, m) in members.iter().enumerate() {
                self.ptr_groups.members.insert(m.id.clone(), (kpl.clone(), k as u32 * stride));
            }
            for v in variables_of.get(root).into_iter().flatten() {
                self.ptr_groups.variables.insert(v.clone(), (kpl.clone(), elem.clone()));
            }
        }
    }

    /// The binding of a group member declaration `id` holding `elem`s: its row of the group's
    /// array; a re-pointed parameter a pointer variable starting there.
    pub(super) fn group_member(
        &mut self,
        id: &str,
        name: &str,
        elem: &Elem,
        assigned: bool,
    ) -> Option<Binding> {
        let (array, start) = self.ptr_groups.member(id)?;
        if assigned {
            let offset = self.fresh(&format!("{name}_at"));
            self.emit(StmtKind::Local { name: offset.clone(), init: Some(Expr::Const(start)) });
            return Some(Binding::Ptr { array, elem: elem.clone(), offset });
        }
        Some(Binding::Alias { array, elem: elem.clone(), at: Expr::Const(start) })
    }
}
