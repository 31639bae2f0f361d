//! Launch facts, independent of the front end that reads the host code: what one kernel's
//! visible launches say ([`Launches`], each a [`Site`]), how they combine into the facts the
//! kernel is checked under ([`facts`]: per-dimension agreement, "one of" the launches' values,
//! dimensions as expressions of the arguments, argument values, overrides by the header and the
//! command line), the report sentences ([`render`]) and the `assume`s a kernel that is fixed only
//! in part gets ([`assumptions`]).
//!
//! The front end (`cuda::launch`) finds launches in clang's typed AST and hands their sites to
//! this module: the rules below and the wording of every sentence are one piece of code.
//!
//! Besides geometry and values, a launch may carry conditions over the arguments that its path
//! ensures ([`Site::conds`], from the host's `if`/`switch`/asserts/early exits): one that every
//! launch has is an `assume` of its own ("assuming pitch >= width: the host code ensures it at
//! line 38 before the launch at line 44"); the others, with the launches' differing argument
//! values and geometry, form the disjunction "one launch's facts or another's"
//! ([`LaunchFacts::site_conds`]), which a launch with nothing of its own makes void. A parameter
//! of an enumeration type may be one of its enumerators ([`enum_param`]).
//!
//! Soundness: a fact is taken only from launches the file shows, and only when *every* one of
//! them agrees; a kernel the file uses in any other way (its address taken, stored in a function
//! pointer, …) gets no fact at all ([`Launches::other_use`]). Several launches that differ in a
//! dimension leave that dimension symbolic, or "one of" their values when each is known: the
//! check covers every launch. A value outside CUDA's limits for its dimension is no fact.

use crate::kpl::ast::{BinOp, Builtin, Dim, Expr, UnOp};
use crate::kpl::Geometry;
use crate::span::Span;

/// A value per `dim3` dimension (`None`: unknown).
pub(crate) type Dims = [Option<i64>; 3];

/// The most dynamic shared memory a block can have (sm_90: 227 KiB when opted in).
const MAX_DYNAMIC_SHARED: i64 = 232_448;

/// Calls that take a kernel's address without launching it.
pub(crate) const NON_LAUNCHING: &[&str] = &[
    "cudaFuncSetAttribute",
    "cudaFuncGetAttributes",
    "cudaFuncSetCacheConfig",
    "cudaFuncSetSharedMemConfig",
    "cudaOccupancyMaxPotentialBlockSize",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyAvailableDynamicSMemPerBlock",
];

/// Runtime calls that launch the kernel named by their first argument with the grid and block
/// dimensions of the second and third (`cudaLaunchCooperativeKernel((void *)k, grid, block,
/// args)`); the kernel's arguments travel in a `void *[]` and are not read.
pub(crate) const LAUNCHING: &[&str] = &["cudaLaunchKernel", "cudaLaunchCooperativeKernel"];

/// One launch of a kernel as the host code states it.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub at: Span,
    pub grid: Dims,
    pub block: Dims,
    /// The value of each argument, where known.
    pub args: Vec<Option<i64>>,
    /// Each dimension of the block (`[0]`) and grid (`[1]`) as an expression over the kernel's
    /// arguments, where the host computes it from them (`(n + 255) / 256`).
    pub rel: [[Option<Rel>; 3]; 2],
    /// Conditions over the kernel's arguments and dimensions that hold whenever this launch
    /// runs (a boolean [`Rel`]: the host checked them on the path to it — an `if` or `switch`
    /// around it, an `assert` or an early exit before it), each with the span of the check.
    pub conds: Vec<(Rel, Span)>,
    /// Host values this launch's facts took from a check on its path (`K == 512` under `case
    /// 512:`), each with the span of the check.
    pub via: Vec<(String, Span)>,
    /// The bytes of dynamic shared memory the launch gives (`<<<g, b, bytes>>>`; 0 when it
    /// gives none), where known.
    pub shared_bytes: Option<i64>,
    /// Per argument, the bytes `cudaMalloc` gave the pointer variable passed there, where the
    /// host shows it (the variable's one allocation, never re-pointed).
    pub arg_bytes: Vec<Option<i64>>,
}

/// A launch dimension or a host condition as a function of the kernel's arguments: C integer
/// arithmetic, comparisons and logic over constants and parameters (by index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rel {
    Const(i64),
    Param(usize),
    /// A C binary operator (`+ - * / % << >> & | ^`, a comparison, `&&`, `||`).
    Bin(&'static str, Box<Rel>, Box<Rel>),
    /// C's `!`.
    Not(Box<Rel>),
    /// A launch dimension: part (`0` block, `1` grid) and axis (a host variable the launch
    /// passes bare as that dimension).
    Dim(usize, usize),
}

impl Rel {
    /// `self` with each parameter `j` renamed to `to(j)`; `None` when some parameter has no
    /// new name (or a dimension appears: it is another launch's).
    pub(crate) fn remap(&self, to: &dyn Fn(usize) -> Option<usize>) -> Option<Rel> {
        Some(match self {
            Rel::Const(v) => Rel::Const(*v),
            Rel::Param(j) => Rel::Param(to(*j)?),
            Rel::Bin(op, a, b) => Rel::Bin(op, Box::new(a.remap(to)?), Box::new(b.remap(to)?)),
            Rel::Not(a) => Rel::Not(Box::new(a.remap(to)?)),
            Rel::Dim(..) => return None,
        })
    }
}

/// Whether a C operator gives a truth value (a condition rather than a number).
fn is_logical(op: &str) -> bool {
    matches!(op, "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||")
}

impl Rel {
    /// The parameters it reads (by index).
    pub(crate) fn params(&self) -> Vec<usize> {
        match self {
            Rel::Const(_) | Rel::Dim(..) => Vec::new(),
            Rel::Param(i) => vec![*i],
            Rel::Bin(_, a, b) => {
                let mut out = a.params();
                out.extend(b.params());
                out
            }
            Rel::Not(a) => a.params(),
        }
    }

    pub(crate) fn has_param(&self) -> bool {
        match self {
            Rel::Const(_) | Rel::Dim(..) => false,
            Rel::Param(_) => true,
            Rel::Bin(_, a, b) => a.has_param() || b.has_param(),
            Rel::Not(a) => a.has_param(),
        }
    }

    /// The launch dimensions it reads (part, axis).
    pub(crate) fn dims(&self) -> Vec<(usize, usize)> {
        match self {
            Rel::Const(_) | Rel::Param(_) => Vec::new(),
            Rel::Dim(p, d) => vec![(*p, *d)],
            Rel::Bin(_, a, b) => {
                let mut out = a.dims();
                out.extend(b.dims());
                out
            }
            Rel::Not(a) => a.dims(),
        }
    }

    /// Whether it reads a parameter or a dimension (a condition on constants alone says nothing).
    pub(crate) fn has_atom(&self) -> bool {
        self.has_param() || !self.dims().is_empty()
    }

    /// The expression in C syntax, parameters by name. Arithmetic inside arithmetic is
    /// parenthesized (`(n + 255) / 256`); arithmetic needs none as a comparison's operand, nor a
    /// comparison as an operand of `&&`/`||` (C's precedence).
    pub fn show(&self, params: &[(String, bool)]) -> String {
        match self {
            Rel::Const(v) => v.to_string(),
            Rel::Param(i) => params.get(*i).map_or("?".into(), |p| p.0.clone()),
            Rel::Dim(p, d) => {
                format!("{}.{}", ["blockDim", "gridDim"][(*p).min(1)], ["x", "y", "z"][(*d).min(2)])
            }
            Rel::Not(a) => match **a {
                Rel::Bin(..) | Rel::Not(_) => format!("!({})", a.show(params)),
                _ => format!("!{}", a.show(params)),
            },
            Rel::Bin(op, a, b) => {
                let side = |r: &Rel| match r {
                    Rel::Bin(inner, ..) => {
                        // Bitwise operators bind looser than comparisons: they keep theirs.
                        let arith = |o: &str| matches!(o, "+" | "-" | "*" | "/" | "%" | "<<" | ">>");
                        let comparison = |o: &str| is_logical(o) && !matches!(o, "&&" | "||");
                        let bare = (comparison(op) && arith(inner))
                            || (matches!(*op, "&&" | "||") && (comparison(inner) || inner == op));
                        if bare {
                            r.show(params)
                        } else {
                            format!("({})", r.show(params))
                        }
                    }
                    _ => r.show(params),
                };
                format!("{} {op} {}", side(a), side(b))
            }
        }
    }

    /// `!self` with the negation pushed into comparisons and through `&&`/`||` (De Morgan), so
    /// a report reads `n % 256 == 0` for an exit under `if (n % 256 != 0)`.
    pub(crate) fn negated(self) -> Rel {
        let flip = |op: &str| -> Option<&'static str> {
            Some(match op {
                "==" => "!=",
                "!=" => "==",
                "<" => ">=",
                ">=" => "<",
                ">" => "<=",
                "<=" => ">",
                _ => return None,
            })
        };
        match self {
            Rel::Not(a) => a.truth(),
            Rel::Bin(op, a, b) => match (op, flip(op)) {
                (_, Some(f)) => Rel::Bin(f, a, b),
                ("&&", _) => Rel::Bin("||", Box::new(a.negated()), Box::new(b.negated())),
                ("||", _) => Rel::Bin("&&", Box::new(a.negated()), Box::new(b.negated())),
                _ => Rel::Bin("==", Box::new(Rel::Bin(op, a, b)), Box::new(Rel::Const(0))),
            },
            r => Rel::Bin("==", Box::new(r), Box::new(Rel::Const(0))),
        }
    }

    /// `self` as a truth value: a number `e` is `e != 0` (C's truth of a condition).
    pub(crate) fn truth(self) -> Rel {
        match self {
            Rel::Bin(op, ..) if is_logical(op) => self,
            Rel::Not(_) => self,
            r => Rel::Bin("!=", Box::new(r), Box::new(Rel::Const(0))),
        }
    }

    /// `self` with its constant comparisons decided and `&&`/`||` of a decided side reduced
    /// (`!(k == 2 && w != h)` at `k == 2` is `w == h`, not `1 == 0 || w == h`).
    pub(crate) fn folded(self) -> Rel {
        let Rel::Bin(op, a, b) = self else {
            return match self {
                Rel::Not(a) => match a.folded() {
                    Rel::Const(v) => Rel::Const(i64::from(v == 0)),
                    a => Rel::Not(Box::new(a)),
                },
                r => r,
            };
        };
        let (a, b) = (a.folded(), b.folded());
        let truth = |v: i64| v != 0;
        match (op, &a, &b) {
            ("&&", Rel::Const(v), _) | ("&&", _, Rel::Const(v)) if !truth(*v) => Rel::Const(0),
            ("||", Rel::Const(v), _) | ("||", _, Rel::Const(v)) if truth(*v) => Rel::Const(1),
            ("&&" | "||", Rel::Const(_), r) | ("&&" | "||", r, Rel::Const(_)) => r.clone().truth(),
            (_, Rel::Const(x), Rel::Const(y)) if is_logical(op) => {
                let v = match op {
                    "==" => x == y,
                    "!=" => x != y,
                    "<" => x < y,
                    "<=" => x <= y,
                    ">" => x > y,
                    ">=" => x >= y,
                    _ => return Rel::Bin(op, Box::new(a), Box::new(b)),
                };
                Rel::Const(i64::from(v))
            }
            _ => Rel::Bin(op, Box::new(a), Box::new(b)),
        }
    }

    /// The conjuncts of a condition (`a && b` is two facts, each usable alone).
    pub(crate) fn conjuncts(self) -> Vec<Rel> {
        match self {
            Rel::Bin("&&", a, b) => {
                let mut out = a.conjuncts();
                out.extend(b.conjuncts());
                out
            }
            r => vec![r],
        }
    }
}

/// What the visible launches of one kernel (by name) say, before any override.
#[derive(Clone, Debug, Default)]
pub(crate) struct Launches {
    pub sites: Vec<Site>,
    /// A use of the kernel's name that is not a launch (a launch the file does not show).
    pub other_use: Option<Span>,
}

/// Who overrides which part of the geometry.
#[derive(Clone, Debug, Default)]
pub(crate) struct Overrides {
    /// The file's header line (GPUVerify's `--blockDim`/`--gridDim`).
    pub header: Geometry,
    /// The command line's `--block-dim`/`--grid-dim`.
    pub command_line: Geometry,
}

/// The facts one kernel is checked under, with where each came from.
#[derive(Clone, Debug, Default)]
pub(crate) struct LaunchFacts {
    /// Block and grid dimensions from the launches (overridden parts are all `None`).
    pub block: [Option<u32>; 3],
    pub grid: [Option<u32>; 3],
    /// Scalar parameters (C name) with the value every launch passes.
    pub args: Vec<(String, i64)>,
    /// Dimensions (`[0]` block, `[1]` grid; axis) that every launch computes by one expression of
    /// the kernel's arguments, with the parameters' names.
    pub relations: Vec<(usize, usize, Rel)>,
    /// The kernel's parameters (C name, whether a by-value integer).
    pub params: Vec<(String, bool)>,
    /// Per launch, the dimensions (part, axis, value) known at every launch but not equal at
    /// all of them: the kernel is checked under "one of the launches' values" (a disjunction).
    pub choices: Vec<Vec<(usize, usize, u32)>>,
    /// Conditions over the parameters that every launch's path ensures (assumed as they are).
    pub conds: Vec<Rel>,
    /// Per launch, the conditions its own path ensures beyond [`LaunchFacts::conds`], and the
    /// argument values that differ between launches (`n == 256`): with [`LaunchFacts::choices`]
    /// one alternative of the disjunction "one launch's facts or another's".
    pub site_conds: Vec<Vec<Rel>>,
    /// Parameters (by index) of an enumeration type with the values of its enumerators: each
    /// is assumed to be one of them.
    pub enums: Vec<(usize, Vec<i64>)>,
    /// The sentences for reports, with the spans (in the lowered text) whose lines they name.
    pub notes: Vec<(String, Vec<Span>)>,
    /// The bytes of dynamic shared memory every launch gives, when they all give one known
    /// value: the `extern __shared__` array's size (issue #41).
    pub shared_bytes: Option<i64>,
    /// Pointer parameters (by index) every launch passes an allocation of one known size in
    /// bytes: the array's size (issue #41).
    pub arg_bytes: Vec<(usize, i64)>,
}

impl LaunchFacts {
    /// The geometry the launches fix completely (a part with a dimension unknown stays `None`;
    /// its known dimensions become `assume`s in the kernel).
    pub fn geometry(&self) -> Geometry {
        let full = |d: [Option<u32>; 3]| -> Option<[u32; 3]> { Some([d[0]?, d[1]?, d[2]?]) };
        Geometry { block_dim: full(self.block), grid_dim: full(self.grid), warp_sync: None }
    }
}

/// CUDA's limits on each dimension: (block, grid).
const BLOCK_MAX: [i64; 3] = [1024, 1024, 64];
const GRID_MAX: [i64; 3] = [(1 << 31) - 1, 65535, 65535];

/// The facts of kernel `name` with scalar parameters `params` (C name, whether an integer
/// type), from its launches `l`, under `over`.
pub(crate) fn facts(name: &str, params: &[(String, bool)], l: &Launches, over: &Overrides) -> LaunchFacts {
    let mut f = LaunchFacts { choices: vec![Vec::new(); l.sites.len()], ..LaunchFacts::default() };
    let sites: Vec<Span> = l.sites.iter().map(|s| s.at).collect();
    if let Some(at) = l.other_use {
        f.notes.push((
            format!("no launch facts for `{name}`: the file uses it at line {{0}} other than in a launch (`<<<…>>>`, `cudaLaunchKernel`), so its launches are not all visible"),
            vec![at],
        ));
        return f;
    }
    let from = if sites.len() == 1 {
        "the launch at line {*}".to_string()
    } else {
        format!("the {} launches at lines {{*}}", sites.len())
    };
    // Dynamic shared memory: one size at every launch (at most 48 KiB by default, 228 KiB
    // opted in: a larger value is no fact).
    let shared: Vec<Option<i64>> = l.sites.iter().map(|s| s.shared_bytes).collect();
    if let Some(Some(v)) = shared.first() {
        if shared.iter().all(|x| *x == Some(*v)) && (0..=MAX_DYNAMIC_SHARED).contains(v) {
            f.shared_bytes = Some(*v);
        }
    }
    // Allocations: one size for a parameter at every launch (a larger one at some launch would
    // make the smaller a wrong bound there, and the larger a missed out-of-bounds access).
    let arity = l.sites.iter().map(|s| s.arg_bytes.len()).max().unwrap_or(0);
    for i in 0..arity {
        let sizes: Vec<Option<i64>> = l.sites.iter().map(|s| s.arg_bytes.get(i).copied().flatten()).collect();
        if let Some(Some(v)) = sizes.first() {
            if *v > 0 && sizes.iter().all(|x| *x == Some(*v)) {
                f.arg_bytes.push((i, *v));
            }
        }
    }
    for (part, dims_of, max, header, cli) in [
        (
            "blockDim",
            (|s: &Site| s.block) as fn(&Site) -> Dims,
            BLOCK_MAX,
            &over.header.block_dim,
            &over.command_line.block_dim,
        ),
        ("gridDim", |s: &Site| s.grid, GRID_MAX, &over.header.grid_dim, &over.command_line.grid_dim),
    ] {
        let flag = if part == "blockDim" { "--block-dim" } else { "--grid-dim" };
        if let Some(d) = cli.as_ref() {
            f.notes.push((format!("{part} = {} from {flag} (overrides {from})", show(d)), sites.clone()));
            continue;
        }
        if let Some(d) = header.as_ref() {
            f.notes.push((
                format!("{part} = {} from the header line (overrides {from})", show(d)),
                sites.clone(),
            ));
            continue;
        }
        let p = usize::from(part == "gridDim");
        let mut known = [None; 3];
        let mut open = Vec::new();
        let mut facts = Vec::new();
        for (d, slot) in known.iter_mut().enumerate() {
            let vals: Vec<Option<i64>> = l.sites.iter().map(|s| dims_of(s)[d]).collect();
            let axis = ["x", "y", "z"][d];
            let in_range = |v: &Option<i64>| v.is_some_and(|v| (1..=max[d]).contains(&v));
            match vals.first().copied().flatten() {
                Some(v) if vals.iter().all(|x| *x == Some(v)) && in_range(&Some(v)) => {
                    *slot = Some(v as u32);
                    continue;
                }
                _ if vals.iter().all(in_range) => {
                    // Known at every launch but different: each launch's value is checked.
                    let mut shown: Vec<i64> = vals.iter().flatten().copied().collect();
                    shown.sort_unstable();
                    shown.dedup();
                    let list: Vec<String> = shown.iter().map(i64::to_string).collect();
                    facts.push(format!(
                        "{part}.{axis} is one of {} (each launch's own value)",
                        list.join(", ")
                    ));
                    for (site, v) in f.choices.iter_mut().zip(&vals) {
                        site.push((p, d, v.unwrap_or(1) as u32));
                    }
                    continue;
                }
                _ => {}
            }
            let rels: Vec<Option<&Rel>> = l.sites.iter().map(|s| s.rel[p][d].as_ref()).collect();
            if let Some(Some(r)) = rels.first().copied() {
                if rels.iter().all(|x| *x == Some(r)) && params_int(r, params) {
                    facts.push(format!("{part}.{axis} = {}", r.show(params)));
                    f.relations.push((p, d, r.clone()));
                    continue;
                }
            }
            open.push(format!("{part}.{axis}"));
        }
        let values: Vec<String> = known.iter().map(|v| v.map_or("?".into(), |v| v.to_string())).collect();
        let mut sentence = format!("{part} = ({}) from {from}", values.join(", "));
        if !facts.is_empty() {
            sentence.push_str(&format!(", assuming {}", facts.join(" and ")));
        }
        if !open.is_empty() {
            sentence.push_str(&format!(
                "; {} checked for every value (not a compile-time constant at every launch)",
                open.join(", ")
            ));
        }
        f.notes.push((sentence, sites.clone()));
        if p == 0 {
            f.block = known;
        } else {
            f.grid = known;
        }
    }
    f.params = params.to_vec();
    f.site_conds = vec![Vec::new(); l.sites.len()];
    for (i, (p, is_int)) in params.iter().enumerate() {
        if !is_int {
            continue;
        }
        let vals: Vec<Option<i64>> = l.sites.iter().map(|s| s.args.get(i).copied().flatten()).collect();
        if let Some(v) = vals.first().copied().flatten() {
            if vals.iter().all(|x| *x == Some(v)) {
                f.args.push((p.clone(), v));
                f.notes.push((format!("assuming {p} = {v}, from {from}"), sites.clone()));
                continue;
            }
        }
        if vals.iter().all(Option::is_some) && l.sites.len() > 1 {
            // Known at every launch but different (`case 256:` and `case 512:`): each launch's
            // own value, with its geometry.
            let mut shown: Vec<i64> = vals.iter().flatten().copied().collect();
            shown.sort_unstable();
            shown.dedup();
            let list: Vec<String> = shown.iter().map(i64::to_string).collect();
            f.notes.push((
                format!("assuming {p} is one of {} (each launch's own value)", list.join(", ")),
                sites.clone(),
            ));
            for (conds, v) in f.site_conds.iter_mut().zip(&vals) {
                let eq = Rel::Bin("==", Box::new(Rel::Param(i)), Box::new(Rel::Const(v.unwrap_or(0))));
                conds.push(eq);
            }
        } else if l.sites.len() > 1 {
            // Known at some launches only (`if (n <= 1024) k(…, n); else k(…, 1024);`): those
            // launches' own part of the disjunction "one launch's path or another's".
            for (conds, v) in f.site_conds.iter_mut().zip(&vals) {
                if let Some(v) = v {
                    conds.push(Rel::Bin("==", Box::new(Rel::Param(i)), Box::new(Rel::Const(*v))));
                }
            }
        }
    }
    // A part the header or the command line replaces is not the launches': no condition on it.
    let overridden = [
        over.command_line.block_dim.is_some() || over.header.block_dim.is_some(),
        over.command_line.grid_dim.is_some() || over.header.grid_dim.is_some(),
    ];
    path_conditions(&mut f, l, params, &sites, overridden);
    for s in &l.sites {
        if s.via.is_empty() {
            continue;
        }
        let what: Vec<&str> = s.via.iter().map(|(w, _)| w.as_str()).collect();
        let mut checks: Vec<Span> = s.via.iter().map(|(_, at)| *at).collect();
        checks.dedup();
        let n = checks.len();
        let marks: Vec<String> = (0..n).map(|i| format!("{{{i}}}")).collect();
        checks.push(s.at);
        f.notes.push((
            format!(
                "the launch at line {{rest:{n}}} runs only with {} (the check at line{} {}): its values above use it",
                what.join(" and "),
                if n == 1 { "" } else { "s" },
                marks.join(", ")
            ),
            checks,
        ));
    }
    f
}

/// The conditions the launches' paths ensure ([`Site::conds`]): one every launch has is a fact
/// of its own; the others are each launch's part of the disjunction of [`LaunchFacts::site_conds`]
/// (kept only when every launch has some condition or choice: otherwise the disjunction says
/// nothing).
fn path_conditions(
    f: &mut LaunchFacts,
    l: &Launches,
    params: &[(String, bool)],
    sites: &[Span],
    overridden: [bool; 2],
) {
    let usable = |r: &Rel| {
        r.has_atom() && params_int(r, params) && r.dims().iter().all(|(p, _)| !overridden[(*p).min(1)])
    };
    // A condition on arguments and dimensions whose values are known says nothing more.
    let known = |r: &Rel, s: &Site| {
        r.params().iter().all(|i| s.args.get(*i).copied().flatten().is_some())
            && r.dims().iter().all(|(p, d)| [s.block, s.grid][(*p).min(1)][(*d).min(2)].is_some())
    };
    let Some(first) = l.sites.first() else { return };
    for (c, _) in &first.conds {
        if !usable(c) || f.conds.contains(c) || l.sites.iter().all(|s| known(c, s)) {
            continue;
        }
        let at: Vec<Option<Span>> =
            l.sites.iter().map(|s| s.conds.iter().find(|(d, _)| d == c).map(|(_, sp)| *sp)).collect();
        if at.iter().all(Option::is_some) {
            let mut checks: Vec<Span> = at.into_iter().flatten().collect();
            checks.dedup();
            // A condition the launch itself makes true (one variable passed twice).
            if checks.iter().all(|c| sites.contains(c)) {
                let (from, pass) = if sites.len() == 1 {
                    ("the launch at line", "passes")
                } else {
                    ("the launches at lines", "pass")
                };
                f.notes.push((
                    format!("assuming {}: {from} {{rest:0}} {pass} one host value as both", c.show(params)),
                    sites.to_vec(),
                ));
                f.conds.push(c.clone());
                continue;
            }
            let n = checks.len();
            checks.extend(sites.iter().copied());
            let from = if sites.len() == 1 { "the launch at line" } else { "the launches at lines" };
            let marks: Vec<String> = (0..n).map(|i| format!("{{{i}}}")).collect();
            f.notes.push((
                format!(
                    "assuming {}: the host code ensures it at line{} {} before {from} {{rest:{n}}}",
                    c.show(params),
                    if n == 1 { "" } else { "s" },
                    marks.join(", ")
                ),
                checks,
            ));
            f.conds.push(c.clone());
        }
    }
    let mut any = false;
    for (own, s) in f.site_conds.iter_mut().zip(&l.sites) {
        for (c, _) in &s.conds {
            if usable(c) && !f.conds.contains(c) && !own.contains(c) && !known(c, s) {
                own.push(c.clone());
                any = true;
            }
        }
    }
    // A launch with nothing of its own (no condition, no differing value or dimension) makes
    // the disjunction true: nothing is assumed, and nothing is said.
    let all_own = f.site_conds.iter().zip(&f.choices).all(|(c, ch)| !c.is_empty() || !ch.is_empty());
    if any && !all_own {
        for (own, s) in f.site_conds.iter_mut().zip(&l.sites) {
            own.retain(|c| !s.conds.iter().any(|(d, _)| d == c));
        }
    } else if any && l.sites.len() > 1 {
        let shown: Vec<String> = f
            .site_conds
            .iter()
            .map(|c| {
                let parts: Vec<String> = c.iter().map(|r| r.show(params)).collect();
                if parts.is_empty() {
                    "true".to_string()
                } else {
                    parts.join(" && ")
                }
            })
            .collect();
        f.notes.push((
            format!(
                "assuming the conditions of one launch's path: {} (for the launches at lines {{*}})",
                shown.join(" or ")
            ),
            sites.to_vec(),
        ));
    } else if any {
        // Cannot happen with one launch (its conditions are all common); kept empty for clarity.
        f.site_conds.iter_mut().for_each(Vec::clear);
    }
}

/// Parameter `i` of enumeration type `ty` with enumerators `members` (name, value) is one of
/// them: the fact and its sentence.
/// `sites`: the launches (their lines are named).
pub(crate) fn enum_param(f: &mut LaunchFacts, i: usize, ty: &str, members: &[(String, i64)], sites: &[Span]) {
    let Some(name) = f.params.get(i).map(|p| p.0.clone()) else { return };
    let mut values: Vec<i64> = members.iter().map(|m| m.1).collect();
    values.sort_unstable();
    values.dedup();
    let shown: Vec<String> = members.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let from =
        if sites.len() == 1 { "the launch at line {*} passes" } else { "the launches at lines {*} pass" };
    f.notes.push((
        format!(
            "assuming {name} is one of the enumerators of `{ty}` ({}): {from} it typed and the file makes no `{ty}` value but from them (no cast to it)",
            shown.join(", ")
        ),
        sites.to_vec(),
    ));
    f.enums.push((i, values));
}

/// Whether every parameter `r` names is a by-value integer.
fn params_int(r: &Rel, params: &[(String, bool)]) -> bool {
    match r {
        Rel::Const(_) => true,
        Rel::Param(i) => params.get(*i).is_some_and(|p| p.1),
        Rel::Bin(_, a, b) => params_int(a, params) && params_int(b, params),
        Rel::Not(a) => params_int(a, params),
        Rel::Dim(..) => true,
    }
}

fn show(d: &[u32; 3]) -> String {
    format!("({}, {}, {})", d[0], d[1], d[2])
}

/// The sentences of `facts` with `{*}` (every span's line) and `{0}` (the first span's line)
/// filled in by `line`.
pub(crate) fn render(facts: &LaunchFacts, line: &dyn Fn(Span) -> usize) -> Vec<String> {
    facts
        .notes
        .iter()
        .map(|(s, spans)| {
            let mut lines: Vec<usize> = spans.iter().map(|sp| line(*sp)).collect();
            let mut out = s.clone();
            // `{rest:N}`: the lines of the spans from the N-th on; `{i}`: the i-th span's line.
            if let Some(at) = out.find("{rest:") {
                let end = out[at..].find('}').map_or(out.len(), |e| at + e + 1);
                let n: usize = out[at + 6..end - 1].parse().unwrap_or(0);
                let mut rest: Vec<usize> = lines.iter().skip(n).copied().collect();
                rest.dedup();
                let rest = rest.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
                out.replace_range(at..end, &rest);
            }
            for (i, l) in lines.iter().enumerate().rev() {
                out = out.replace(&format!("{{{i}}}"), &l.to_string());
            }
            lines.dedup();
            // Several sites on one line (a launch in a helper, read once per value its callers
            // take from a table; launches a macro expands).
            if lines.len() == 1 {
                out = out.replace("launches at lines", "launches at line");
            }
            let all = lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
            out.replace("{*}", &all)
        })
        .collect()
}

/// The `assume`s of a kernel whose launches fix a part (block or grid) only in part: each known
/// dimension of such a part, each dimension every launch computes by one expression of the
/// arguments ([`LaunchFacts::relations`]), and "one launch's values or another's" for the
/// dimensions the launches disagree on ([`LaunchFacts::choices`]). A part fixed completely is the
/// kernel's geometry instead and gets none.
///
/// Dimensions `y`/`z` are assumed only where `mentioned(var, axis)` says the kernel text names
/// them (`threadIdx.y`, `blockDim.z`, …) or `groups` (cooperative groups' ranks read every
/// dimension): an unread dimension is left to the launch-shape inference, which assumes 1
/// without a term (both are sound; the fact is only needed where the kernel reads it).
/// `param(i)` is the kernel's parameter `i` as a KPL expression and whether it is unsigned
/// (`None`: not a scalar the kernel can read, and no relation over it is assumed).
pub(crate) fn assumptions(
    facts: &LaunchFacts,
    mentioned: &dyn Fn(&str, &str) -> bool,
    groups: bool,
    param: &dyn Fn(usize) -> Option<(Expr, bool)>,
) -> Vec<Expr> {
    let builtin_of = |p: usize, d: usize| {
        let dim = [Dim::X, Dim::Y, Dim::Z][d];
        if p == 0 {
            Builtin::BlockDim(dim)
        } else {
            Builtin::GridDim(dim)
        }
    };
    let names = |p: usize| if p == 0 { ["threadIdx", "blockDim"] } else { ["blockIdx", "gridDim"] };
    let read = |p: usize, d: usize| {
        let axis = ["x", "y", "z"][d];
        d == 0 || groups || names(p).iter().any(|n| mentioned(n, axis))
    };
    let eq = |b: Builtin, e: Expr| Expr::Binary(BinOp::Eq, Box::new(Expr::Builtin(b)), Box::new(e));
    let mut assumed = Vec::new();
    for (p, dims) in [facts.block, facts.grid].into_iter().enumerate() {
        if dims.iter().all(Option::is_some) {
            continue;
        }
        for (d, v) in dims.iter().enumerate() {
            if let Some(v) = v.filter(|_| read(p, d)) {
                assumed.push(eq(builtin_of(p, d), Expr::Const(v)));
            }
        }
    }
    for (p, d, rel) in &facts.relations {
        if !read(*p, *d) {
            continue;
        }
        if let Some(e) = stated(rel, param, |e| eq(builtin_of(*p, *d), e)) {
            assumed.push(e);
        }
    }
    for c in &facts.conds {
        assumed.extend(stated(c, param, |e| e));
    }
    for (i, values) in &facts.enums {
        let Some((p, _)) = param(*i) else { continue };
        let one_of = values
            .iter()
            .filter_map(|v| relation(&Rel::Const(*v), param, &mut Vec::new()))
            .map(|(v, _)| Expr::Binary(BinOp::Eq, Box::new(p.clone()), Box::new(v)))
            .reduce(|a, b| Expr::Binary(BinOp::Or, Box::new(a), Box::new(b)));
        assumed.extend(one_of);
    }
    // One launch's values of the dimensions the launches disagree on (and its own argument
    // values and path conditions), or another's. A launch with nothing of its own makes the
    // disjunction true; one whose condition cannot be stated is dropped from its conjunction
    // (weaker, still implied by the launch).
    let sites = facts.choices.len().max(facts.site_conds.len());
    let alternatives: Vec<Vec<Expr>> = (0..sites)
        .map(|i| {
            let mut conj: Vec<Expr> = facts
                .choices
                .get(i)
                .into_iter()
                .flatten()
                .map(|(p, d, v)| eq(builtin_of(*p, *d), Expr::Const(*v)))
                .collect();
            for c in facts.site_conds.get(i).into_iter().flatten() {
                conj.extend(stated(c, param, |e| e));
            }
            conj
        })
        .collect();
    if alternatives.len() > 1 && alternatives.iter().all(|c| !c.is_empty()) {
        let any = alternatives
            .into_iter()
            .filter_map(|c| c.into_iter().reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b))))
            .reduce(|a, b| Expr::Binary(BinOp::Or, Box::new(a), Box::new(b)));
        assumed.extend(any);
    }
    assumed
}

/// A host condition (or a dimension's relation, `dim == e`) as one assumption: `e` with the
/// conditions that its signed host arithmetic does not overflow ([`relation`]), since C leaves
/// a signed overflow undefined: a launch whose host code would overflow computing `(cols + 31) /
/// 32` is no execution of the program.
fn stated(
    r: &Rel,
    param: &dyn Fn(usize) -> Option<(Expr, bool)>,
    with: impl FnOnce(Expr) -> Expr,
) -> Option<Expr> {
    let mut no_overflow = Vec::new();
    let (e, _) = relation(r, param, &mut no_overflow)?;
    let and = |a: Expr, b: Expr| Expr::Binary(BinOp::And, Box::new(a), Box::new(b));
    Some(no_overflow.into_iter().fold(with(e), and))
}

/// A launch relation as a KPL expression over the parameters (`param`), with C's usual
/// arithmetic conversions (unsigned when either operand is), and whether it is unsigned. Each
/// signed `+` or `-` adds to `no_overflow` the condition that it stays in range (the sum's sign
/// agrees with an operand's: `((a ^ s) & (b ^ s)) >= 0` for `s = a + b`).
fn relation(
    r: &Rel,
    param: &dyn Fn(usize) -> Option<(Expr, bool)>,
    no_overflow: &mut Vec<Expr>,
) -> Option<(Expr, bool)> {
    match r {
        Rel::Const(v) => match (i32::try_from(*v), u32::try_from(*v)) {
            (Ok(v), _) => Some((Expr::Const(v as u32), false)),
            (_, Ok(v)) => Some((Expr::Const(v), true)),
            _ => None,
        },
        Rel::Param(i) => param(*i),
        // A dimension is the host variable's value, below 2^31 at every launch CUDA runs (its
        // limits), so C's comparisons of the host's `int` read it as signed.
        Rel::Dim(p, d) => {
            let dim = [Dim::X, Dim::Y, Dim::Z][(*d).min(2)];
            let b = if *p == 0 { Builtin::BlockDim(dim) } else { Builtin::GridDim(dim) };
            Some((Expr::Builtin(b), false))
        }
        Rel::Not(a) => {
            let (a, _) = relation(a, param, no_overflow)?;
            Some((Expr::Unary(UnOp::Not, Box::new(a)), false))
        }
        Rel::Bin(op, a, b) => {
            let (a, ua) = relation(a, param, no_overflow)?;
            let (b, ub) = relation(b, param, no_overflow)?;
            let unsigned = ua || ub;
            // A truth value is a signed int 0 or 1 in C.
            let truth = |op: BinOp| Some((Expr::Binary(op, Box::new(a.clone()), Box::new(b.clone())), false));
            match (*op, unsigned) {
                ("==", _) => return truth(BinOp::Eq),
                ("!=", _) => return truth(BinOp::Ne),
                ("<", false) => return truth(BinOp::Lt),
                ("<=", false) => return truth(BinOp::Le),
                (">", false) => return truth(BinOp::Gt),
                (">=", false) => return truth(BinOp::Ge),
                ("<", true) => return truth(BinOp::ULt),
                ("<=", true) => return truth(BinOp::ULe),
                (">", true) => return truth(BinOp::UGt),
                (">=", true) => return truth(BinOp::UGe),
                ("&&", _) => return truth(BinOp::And),
                ("||", _) => return truth(BinOp::Or),
                _ => {}
            }
            let op = match (*op, unsigned) {
                ("&", _) => BinOp::BitAnd,
                ("|", _) => BinOp::BitOr,
                ("^", _) => BinOp::BitXor,
                ("+", _) => BinOp::Add,
                ("-", _) => BinOp::Sub,
                ("*", _) => BinOp::Mul,
                ("/", false) => BinOp::Div,
                ("/", true) => BinOp::UDiv,
                ("%", false) => BinOp::Rem,
                ("%", true) => BinOp::URem,
                ("<<", _) => BinOp::Shl,
                // A shift is signed or not by its left operand alone.
                (">>", _) if ua => BinOp::UShr,
                (">>", _) => BinOp::Shr,
                _ => return None,
            };
            // A shift's type is its left operand's.
            let unsigned = if matches!(op, BinOp::Shl | BinOp::Shr | BinOp::UShr) { ua } else { unsigned };
            let result = Expr::Binary(op, Box::new(a.clone()), Box::new(b.clone()));
            let constant = |e: &Expr| matches!(e, Expr::Const(_));
            if !unsigned && matches!(op, BinOp::Add | BinOp::Sub) && !(constant(&a) && constant(&b)) {
                let xor = |x: &Expr, y: &Expr| {
                    Expr::Binary(BinOp::BitXor, Box::new(x.clone()), Box::new(y.clone()))
                };
                // `a + b`: the sum has the sign of `a` or of `b`; `a - b`: of `a`, or `a` and `b` agree.
                let (p, q) = match op {
                    BinOp::Add => (xor(&a, &result), xor(&b, &result)),
                    _ => (xor(&a, &b), xor(&a, &result)),
                };
                let both = Expr::Binary(BinOp::BitAnd, Box::new(p), Box::new(q));
                no_overflow.push(Expr::Binary(BinOp::Ge, Box::new(both), Box::new(Expr::Const(0))));
            }
            Some((result, unsigned))
        }
    }
}
