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
//! Soundness: a fact is taken only from launches the file shows, and only when *every* one of
//! them agrees; a kernel the file uses in any other way (its address taken, stored in a function
//! pointer, …) gets no fact at all ([`Launches::other_use`]). Several launches that differ in a
//! dimension leave that dimension symbolic, or "one of" their values when each is known: the
//! check covers every launch. A value outside CUDA's limits for its dimension is no fact.

use crate::kpl::ast::{BinOp, Builtin, Dim, Expr};
use crate::kpl::Geometry;
use crate::span::Span;

/// A value per `dim3` dimension (`None`: unknown).
pub(crate) type Dims = [Option<i64>; 3];

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
}

/// A launch dimension as a function of the kernel's arguments: C integer arithmetic over
/// constants and parameters (by index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rel {
    Const(i64),
    Param(usize),
    /// A C binary operator (`+ - * / % << >>`).
    Bin(&'static str, Box<Rel>, Box<Rel>),
}

impl Rel {
    pub(crate) fn has_param(&self) -> bool {
        match self {
            Rel::Const(_) => false,
            Rel::Param(_) => true,
            Rel::Bin(_, a, b) => a.has_param() || b.has_param(),
        }
    }

    /// The expression in C syntax, parameters by name.
    pub fn show(&self, params: &[(String, bool)]) -> String {
        match self {
            Rel::Const(v) => v.to_string(),
            Rel::Param(i) => params.get(*i).map_or("?".into(), |p| p.0.clone()),
            Rel::Bin(op, a, b) => {
                let side = |r: &Rel| match r {
                    Rel::Bin(..) => format!("({})", r.show(params)),
                    _ => r.show(params),
                };
                format!("{} {op} {}", side(a), side(b))
            }
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
    /// The sentences for reports, with the spans (in the lowered text) whose lines they name.
    pub notes: Vec<(String, Vec<Span>)>,
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
    for (i, (p, is_int)) in params.iter().enumerate() {
        if !is_int {
            continue;
        }
        let vals: Vec<Option<i64>> = l.sites.iter().map(|s| s.args.get(i).copied().flatten()).collect();
        if let Some(v) = vals.first().copied().flatten() {
            if vals.iter().all(|x| *x == Some(v)) {
                f.args.push((p.clone(), v));
                f.notes.push((format!("assuming {p} = {v}, from {from}"), sites.clone()));
            }
        }
    }
    f
}

/// Whether every parameter `r` names is a by-value integer.
fn params_int(r: &Rel, params: &[(String, bool)]) -> bool {
    match r {
        Rel::Const(_) => true,
        Rel::Param(i) => params.get(*i).is_some_and(|p| p.1),
        Rel::Bin(_, a, b) => params_int(a, params) && params_int(b, params),
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
            let first = lines.first().copied().unwrap_or(0);
            lines.dedup();
            let all = lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
            s.replace("{*}", &all).replace("{0}", &first.to_string())
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
        if let Some((e, _)) = relation(rel, param) {
            assumed.push(eq(builtin_of(*p, *d), e));
        }
    }
    // One launch's values of the dimensions the launches disagree on, or another's.
    let alternatives: Vec<Expr> = facts
        .choices
        .iter()
        .filter(|c| !c.is_empty())
        .map(|c| {
            c.iter()
                .map(|(p, d, v)| eq(builtin_of(*p, *d), Expr::Const(*v)))
                .reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)))
                .unwrap_or(Expr::Const(1))
        })
        .collect();
    if let Some(any) =
        alternatives.into_iter().reduce(|a, b| Expr::Binary(BinOp::Or, Box::new(a), Box::new(b)))
    {
        assumed.push(any);
    }
    assumed
}

/// A launch relation as a KPL expression over the parameters (`param`), with C's usual
/// arithmetic conversions (unsigned when either operand is), and whether it is unsigned.
fn relation(r: &Rel, param: &dyn Fn(usize) -> Option<(Expr, bool)>) -> Option<(Expr, bool)> {
    match r {
        Rel::Const(v) => match (i32::try_from(*v), u32::try_from(*v)) {
            (Ok(v), _) => Some((Expr::Const(v as u32), false)),
            (_, Ok(v)) => Some((Expr::Const(v), true)),
            _ => None,
        },
        Rel::Param(i) => param(*i),
        Rel::Bin(op, a, b) => {
            let (a, ua) = relation(a, param)?;
            let (b, ub) = relation(b, param)?;
            let unsigned = ua || ub;
            let op = match (*op, unsigned) {
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
            Some((Expr::Binary(op, Box::new(a), Box::new(b)), unsigned))
        }
    }
}
