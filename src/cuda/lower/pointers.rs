//! Pointer locals that may point into more than one array: `float *p = c ? a : b;`,
//! `float *p; if (c) p = a; else p = b;`, `p = a; … p = b;`.
//!
//! A pre-pass over the kernel body groups the arrays each pointer local is ever given (through
//! `?:` too). The arrays of a group lower to ONE KPL array with a leading member dimension
//! (`a` is row 0, `b` row 1), so a pointer is an index like any other: its member component is a
//! local holding 0 or 1, chosen by the condition. Accesses through the pointer then touch exactly
//! the element the program touches (exact, not an over-approximation), and accesses to `a` and
//! `b` by name stay in their rows, which never overlap: a row has as many words as the largest
//! member, and a member of unknown length (a pointer parameter) gets rows of 2^28 words — an
//! index beyond that could alias another member's element, which can only add reported races.
//! Members must share the memory space; otherwise the pointer stays an error at its use.

use super::*;

/// A group's member names in order of first appearance, and its KPL array once its first
/// member is declared (with that member's space).
type Group = (Vec<String>, Option<(String, Space)>);

/// The array groups of one kernel body.
#[derive(Default, Debug)]
pub(super) struct PtrGroups {
    /// C array name → (group, member number).
    member: HashMap<String, (usize, u32)>,
    /// C pointer name → group.
    pointer: HashMap<String, usize>,
    /// Per group: its member names in order of first appearance, and the KPL array once its
    /// first member is declared (with that member's space).
    groups: Vec<Group>,
}

/// Rows of a member of unknown length (see the module comment).
const UNKNOWN_ROW: u32 = 1 << 28;

fn roots<'n>(n: Node<'n>, src: &str, out: &mut Vec<String>) {
    let n = strip_parens(n);
    match n.kind() {
        "conditional_expression" => {
            for f in ["consequence", "alternative"] {
                if let Some(x) = n.child_by_field_name(f) {
                    roots(x, src, out);
                }
            }
        }
        "cast_expression" => {
            if let Some(v) = n.child_by_field_name("value") {
                roots(v, src, out);
            }
        }
        _ => {
            if let Some(r) = pointer_root(n) {
                out.push(text(r, src).to_string());
            }
        }
    }
}

/// Whether evaluating `n` could change a variable or memory (an assignment, `++`, a call).
fn writes_anything(n: Node) -> bool {
    if matches!(n.kind(), "assignment_expression" | "update_expression" | "call_expression") {
        return true;
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    children.into_iter().any(writes_anything)
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

impl PtrGroups {
    /// The C names of the members of the group whose KPL array is `kpl`, in member order.
    pub(super) fn members_of(&self, kpl: &str) -> Option<Vec<String>> {
        self.groups.iter().find(|g| g.1.as_ref().is_some_and(|(k, _)| k == kpl)).map(|g| g.0.clone())
    }

    /// Groups the arrays the pointer locals of `body` may point into, also those of the device
    /// functions it calls (inlined: see [`callee_edges`]).
    pub(super) fn collect(body: Node, src: &str, file: &FileInfo, prog: &Program) -> PtrGroups {
        let mut edges: Vec<(String, Vec<String>)> = Vec::new();
        let mut pointers: Vec<String> = Vec::new();
        walk(body, src, &mut edges, &mut pointers);
        callee_edges(body, src, prog, &Callee::default(), 0, &mut edges, &mut pointers);
        // Only arrays join groups: the kernel's pointer parameters, arrays declared in the body,
        // file-scope arrays (a pointer to a scalar or a pointer parameter of an inlined
        // function stays what it was).
        let mut arrays: Vec<String> = file.arrays.iter().map(|a| a.name.clone()).collect();
        if let Some(f) = body.parent() {
            for p in fn_params(f) {
                if let Some(d) = p.child_by_field_name("declarator") {
                    if matches!(d.kind(), "pointer_declarator" | "array_declarator") {
                        if let Some(r) = array_name(d) {
                            arrays.push(text(r, src).to_string());
                        }
                    }
                }
            }
        }
        body_arrays(body, src, &mut arrays);
        let edges: Vec<(String, Vec<String>)> = edges
            .into_iter()
            .filter(|(p, _)| pointers.contains(p))
            .map(|(p, rs)| {
                (p, rs.into_iter().filter(|r| arrays.contains(r) || pointers.contains(r)).collect())
            })
            .collect();
        let mut names: Vec<String> = Vec::new();
        let id = |s: &str, names: &mut Vec<String>| match names.iter().position(|x| x == s) {
            Some(i) => i,
            None => {
                names.push(s.to_string());
                names.len() - 1
            }
        };
        let mut pairs = Vec::new();
        for (p, rs) in &edges {
            let a = id(p, &mut names);
            for r in rs {
                let b = id(r, &mut names);
                pairs.push((a, b));
            }
        }
        let mut parent: Vec<usize> = (0..names.len()).collect();
        for (a, b) in pairs {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            if ra != rb {
                parent[rb] = ra;
            }
        }
        let mut out = PtrGroups::default();
        let mut group_of_root: HashMap<usize, usize> = HashMap::new();
        for (i, name) in names.iter().enumerate() {
            let r = find(&mut parent, i);
            if pointers.contains(name) {
                continue;
            }
            let g = *group_of_root.entry(r).or_insert_with(|| {
                out.groups.push((Vec::new(), None));
                out.groups.len() - 1
            });
            out.groups[g].0.push(name.clone());
        }
        for (i, name) in names.iter().enumerate() {
            let r = find(&mut parent, i);
            if let Some(g) = group_of_root.get(&r) {
                if pointers.contains(name) {
                    out.pointer.insert(name.clone(), *g);
                } else if out.groups[*g].0.len() > 1 {
                    let k = out.groups[*g].0.iter().position(|x| x == name).unwrap_or(0) as u32;
                    out.member.insert(name.clone(), (*g, k));
                }
            }
        }
        out
    }
}

/// Where an inlined function body sits: its namespace (a call-site path, so the pointer locals
/// of each inlined copy are their own names) and what its pointer parameters point into (the
/// roots of the arguments, as names of the kernel's namespace).
#[derive(Default)]
struct Callee {
    ns: String,
    params: HashMap<String, Vec<String>>,
    locals: Vec<String>,
}

impl Callee {
    /// A name used in this body, as roots of the kernel's namespace.
    fn roots(&self, name: &str) -> Vec<String> {
        if let Some(r) = self.params.get(name) {
            return r.clone();
        }
        if self.locals.iter().any(|l| l == name) {
            return vec![format!("{}#{name}", self.ns)];
        }
        vec![name.to_string()]
    }
}

/// The pointer locals of every device function `body` calls, per call site: `float *src = c ?
/// b : a;` in `f(bufA, bufB)` gives `f@…#src` the roots `bufB` and `bufA`, so the caller's
/// arrays join one group and the inlined `?:` chooses between rows of it. Only the functions'
/// pointer locals make edges (a parameter is its argument), so calling one function with
/// different arrays groups nothing by itself.
fn callee_edges(
    n: Node,
    src: &str,
    prog: &Program,
    here: &Callee,
    depth: usize,
    edges: &mut Vec<(String, Vec<String>)>,
    pointers: &mut Vec<String>,
) {
    if depth > 8 {
        return;
    }
    if n.kind() == "call_expression" {
        let f = n.child_by_field_name("function").filter(|f| f.kind() == "identifier");
        let args: Vec<Node> = match n.child_by_field_name("arguments") {
            Some(a) => {
                let mut c = a.walk();
                let v: Vec<Node> = a.named_children(&mut c).filter(|x| x.kind() != "comment").collect();
                v
            }
            None => Vec::new(),
        };
        if let Some(f) = f {
            let fname = text(f, src);
            if let [def] = prog.function(fname, args.len(), src)[..] {
                if let Some(body) = def.node.child_by_field_name("body") {
                    let mut inner = Callee {
                        ns: format!("{}/{fname}@{}", here.ns, n.start_byte()),
                        ..Default::default()
                    };
                    for (p, a) in fn_params(def.node).iter().zip(&args) {
                        let decl = p.child_by_field_name("declarator");
                        let Some(name) =
                            decl.filter(|d| d.kind() == "pointer_declarator").and_then(array_name)
                        else {
                            continue;
                        };
                        let mut rs = Vec::new();
                        roots(*a, src, &mut rs);
                        let rs = rs.iter().flat_map(|r| here.roots(r)).collect();
                        inner.params.insert(text(name, src).to_string(), rs);
                    }
                    let mut local_edges = Vec::new();
                    walk(body, src, &mut local_edges, &mut inner.locals);
                    for (p, rs) in local_edges {
                        // An assignment to a parameter re-points the callee's copy only.
                        if !inner.locals.contains(&p) {
                            continue;
                        }
                        let rs = rs.iter().flat_map(|r| inner.roots(r)).collect();
                        edges.push((format!("{}#{p}", inner.ns), rs));
                    }
                    pointers.extend(inner.locals.iter().map(|l| format!("{}#{l}", inner.ns)));
                    callee_edges(body, src, prog, &inner, depth + 1, edges, pointers);
                }
            }
        }
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    for ch in children {
        callee_edges(ch, src, prog, here, depth, edges, pointers);
    }
}

/// The name a (pointer or array) declarator declares.
fn array_name(d: Node) -> Option<Node> {
    let mut cur = d;
    while matches!(cur.kind(), "pointer_declarator" | "array_declarator" | "init_declarator") {
        cur = cur.child_by_field_name("declarator")?;
    }
    (cur.kind() == "identifier").then_some(cur)
}

/// Names of the arrays declared in `n`.
fn body_arrays(n: Node, src: &str, out: &mut Vec<String>) {
    if n.kind() == "declaration" {
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            let inner =
                if d.kind() == "init_declarator" { d.child_by_field_name("declarator") } else { Some(d) };
            if let Some(r) = inner.filter(|x| x.kind() == "array_declarator").and_then(array_name) {
                out.push(text(r, src).to_string());
            }
        }
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    for ch in children {
        body_arrays(ch, src, out);
    }
}

/// Pointer locals (declarations) and every value they are given.
fn walk(n: Node, src: &str, edges: &mut Vec<(String, Vec<String>)>, pointers: &mut Vec<String>) {
    match n.kind() {
        "declaration" => {
            let mut c = n.walk();
            let decls: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
            for d in decls {
                let (decl, value) = match d.kind() {
                    "init_declarator" => {
                        (d.child_by_field_name("declarator"), d.child_by_field_name("value"))
                    }
                    _ => (Some(d), None),
                };
                let Some(decl) = decl.filter(|x| x.kind() == "pointer_declarator") else { continue };
                let Some(name) = decl.child_by_field_name("declarator").filter(|x| x.kind() == "identifier")
                else {
                    continue;
                };
                let name = text(name, src).to_string();
                pointers.push(name.clone());
                let mut rs = Vec::new();
                if let Some(v) = value {
                    roots(v, src, &mut rs);
                }
                edges.push((name, rs));
            }
        }
        "assignment_expression" => {
            let op = n.child_by_field_name("operator").map(|o| text(o, src)).unwrap_or("");
            if let (Some(l), Some(r), "=") =
                (n.child_by_field_name("left"), n.child_by_field_name("right"), op)
            {
                let l = strip_parens(l);
                if l.kind() == "identifier" {
                    let mut rs = Vec::new();
                    roots(r, src, &mut rs);
                    edges.push((text(l, src).to_string(), rs));
                }
            }
        }
        _ => {}
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    for ch in children {
        walk(ch, src, edges, pointers);
    }
}

impl<'t> Lx<'_, 't> {
    /// Declares the array `cname` as a member of its pointer group, if it is in one with another
    /// array of the same space: binds it to its row of the group's KPL array. `false`: not
    /// grouped (declare it normally).
    pub(super) fn grouped_array(
        &mut self,
        cname: &str,
        space: Space,
        elem: Ty,
        dims: &[Option<u32>],
        sp: Span,
    ) -> bool {
        let Some(&(g, k)) = self.ptr_groups.member.get(cname) else { return false };
        let row: Vec<Option<u32>> = dims.iter().map(|d| Some(d.unwrap_or(UNKNOWN_ROW))).collect();
        let kpl = match self.ptr_groups.groups[g].1.clone() {
            Some((kpl, s)) if s == space => {
                // Rows as large as the largest member.
                if let Some(a) = self.arrays.iter_mut().find(|a| a.name == kpl) {
                    if a.dims.len() != row.len() + 1 {
                        return false;
                    }
                    for (have, want) in a.dims.iter_mut().skip(1).zip(&row) {
                        *have = (*have).max(*want);
                    }
                }
                kpl
            }
            Some(_) => return false,
            None => {
                let n = self.ptr_groups.groups[g].0.len() as u32;
                let base = self.ptr_groups.groups[g].0.join("_or_");
                let kpl = if self.taken.contains(&base) { self.fresh_name(&base) } else { base };
                self.taken.insert(kpl.clone());
                let mut full = vec![Some(n)];
                full.extend(row);
                self.arrays.push(ArrayDecl { name: kpl.clone(), space, dims: full, span: sp });
                self.ptr_groups.groups[g].1 = Some((kpl.clone(), space));
                kpl
            }
        };
        let b = Binding::Array { kpl, elem, ndims: dims.len(), scalar: false, prefix: vec![Expr::Const(k)] };
        self.scopes[0].insert(cname.to_string(), b.clone());
        if let Some(s) = self.scopes.last_mut() {
            s.insert(cname.to_string(), b);
        }
        true
    }

    /// `T *p;` without an initializer: a pointer into the arrays the body later gives it, at an
    /// arbitrary element until then.
    pub(super) fn uninit_pointer(&mut self, cname: &str, elem: Ty, at: Node) -> R<()> {
        let group = self.ptr_groups.pointer.get(cname).copied();
        let member = group.and_then(|g| self.ptr_groups.groups[g].0.first().cloned());
        let Some(first) = member else {
            return Err(unsupported(format!("the pointer `{cname}` is never given an array"), at));
        };
        self.bring_file_array(&first);
        let (array, comps) = match self.lookup(&first).cloned() {
            Some(Binding::Array { kpl, ndims, prefix, scalar: false, .. }) => (kpl, prefix.len() + ndims),
            _ => {
                return Err(unsupported(
                    format!("the pointer `{cname}` declared before the array `{first}` it points into"),
                    at,
                ))
            }
        };
        let comps: Vec<Expr> = (0..comps).map(|_| Expr::Var(self.temp(None))).collect();
        self.bind_pointer(cname, array, elem, comps, true);
        Ok(())
    }

    /// `c ? p : q` of two pointers into (rows of) the same KPL array: the element of either,
    /// chosen by `c`. Both pointers are evaluated (their index reads happen either way: more
    /// accesses, never fewer); a branch with side effects is refused.
    pub(super) fn pointer_choice(&mut self, n: Node) -> R<(String, Ty, Vec<Expr>)> {
        let (c, a, b) = self.ternary_parts(n)?;
        if [a, b].iter().any(|x| writes_anything(*x)) {
            return Err(unsupported("a pointer `?:` whose branches have side effects", n));
        }
        let cond = self.cond(c)?;
        let (a1, e1, c1) = self.pointer_any(a)?;
        let (a2, _, c2) = self.pointer_any(b)?;
        if a1 != a2 || c1.len() != c2.len() {
            return Err(unsupported(
                format!(
                    "the pointer `{}`: its branches point into arrays of different memory spaces or shapes",
                    text(n, self.src)
                ),
                n,
            ));
        }
        let comps = c1
            .into_iter()
            .zip(c2)
            .map(
                |(x, y)| {
                    if x == y {
                        x
                    } else {
                        Expr::Select(Box::new(cond.clone()), Box::new(x), Box::new(y))
                    }
                },
            )
            .collect();
        Ok((a1, e1, comps))
    }
}
