//! The launch as z3 terms: the geometry both threads share ([`Launch`]), each thread's ids
//! ([`ThreadIds`]), and the facts about global and linear ids every query may use.
//!
//! Below `symbolic` (which walks a thread over these terms) and above `shape` (which decides
//! which dimensions are free): `shape` → `launch` → `symbolic`, no way back.

use crate::verify::shape::LaunchShape;
use crate::verify::word::W;
use z3::ast::{Bool, BV};

/// Launch geometry terms shared by both threads.
pub struct Launch {
    pub block_dim: [BV; 3],
    pub grid_dim: [BV; 3],
    /// Facts about the geometry (ranges, or the concrete sizes).
    pub facts: Vec<Bool>,
    /// Assume each thread's global id along `x` fits in a non-negative `int`
    /// (`LaunchShape::x_id_fits`, `shape::x_global_id_fits`).
    pub x_id_fits: bool,
}

impl Launch {
    /// The geometry's terms; a symbolic dimension that `shape` does not leave free is 1.
    pub fn new(g: &crate::kpl::Geometry, shape: &LaunchShape) -> Launch {
        let mut facts = Vec::new();
        // A dimension assumed to be 1 is the numeral itself, so the ids along it are the numeral 0
        // (`ThreadIds::new`) and terms like `tid.z * bdim.x * bdim.y` vanish before solving.
        let mut dims =
            |name: &str, given: Option<[u32; 3]>, free: [bool; 3], max_total: Option<u64>| -> [BV; 3] {
                let v: [BV; 3] = std::array::from_fn(|i| {
                    if given.is_none() && !free[i] {
                        BV::from_u64(1, W)
                    } else {
                        BV::new_const(format!("{name}{i}"), W)
                    }
                });
                match given {
                    Some(d) => {
                        for i in 0..3 {
                            facts.push(v[i].eq(BV::from_u64(d[i] as u64, W)));
                        }
                    }
                    None => {
                        for (d, (item, free)) in v.iter().zip(free).enumerate() {
                            if !free {
                                continue;
                            }
                            // CUDA's limits: a block has at most 1024 threads; a grid at most
                            // 2^31 - 1 blocks along x and 65535 along y and z.
                            let max = max_total.unwrap_or(if d == 0 { (1 << 31) - 1 } else { 65535 });
                            facts.push(item.bvuge(BV::from_u64(1, W)));
                            facts.push(item.bvule(BV::from_u64(max, W)));
                        }
                        if let Some(t) = max_total {
                            // x*y*z <= 1024 without overflow: each factor is at most 1024.
                            let prod = v[0].bvmul(&v[1]).bvmul(&v[2]);
                            facts.push(prod.bvule(BV::from_u64(t, W)));
                        }
                    }
                }
                v
            };
        let block_dim = dims("bdim", g.block_dim, shape.block, Some(1024));
        let grid_dim = dims("gdim", g.grid_dim, shape.grid, None);
        Launch { block_dim, grid_dim, facts, x_id_fits: shape.x_id_fits }
    }
}

/// One thread's identity.
pub struct ThreadIds {
    pub tid: [BV; 3],
    pub bid: [BV; 3],
}

impl ThreadIds {
    /// Fresh ids for thread `theta`; `range` holds `tid < bdim`, `bid < gdim`.
    pub fn new(theta: u8, shared_bid: Option<&[BV; 3]>, launch: &Launch, range: &mut Vec<Bool>) -> ThreadIds {
        // Along a dimension of extent 1 (the numeral, see `Launch::new`) every id is 0.
        let id = |name: String, extent: &BV| match extent.as_u64() {
            Some(1) => BV::from_u64(0, W),
            _ => BV::new_const(name, W),
        };
        let tid: [BV; 3] = std::array::from_fn(|i| id(format!("tid{theta}_{i}"), &launch.block_dim[i]));
        let bid: [BV; 3] = match shared_bid {
            Some(b) => b.clone(),
            None => std::array::from_fn(|i| id(format!("bid{theta}_{i}"), &launch.grid_dim[i])),
        };
        for i in 0..3 {
            range.push(tid[i].bvult(&launch.block_dim[i]));
            range.push(bid[i].bvult(&launch.grid_dim[i]));
        }
        ThreadIds { tid, bid }
    }
}

/// The linear thread id `x + y·bx + z·bx·by` (CUDA's order; warps are consecutive linear ids).
pub fn linear_tid(t: &[BV; 3], block_dim: &[BV; 3]) -> BV {
    let bd = block_dim;
    t[0].bvadd(t[1].bvmul(&bd[0])).bvadd(t[2].bvmul(bd[0].bvmul(&bd[1])))
}

/// The assumption that a thread's global id along `x`, `blockIdx.x * blockDim.x + threadIdx.x`,
/// fits in a non-negative `int` (below 2^31, computed without wrapping): the grid has at most 2^31
/// threads along `x`. Kernels compute that id in `int` (`int i = blockIdx.x * blockDim.x + …`),
/// which is only defined when it fits; CUDA itself allows up to (2^31 − 1) · 1024 threads along
/// `x`, so this is an assumption (docs/semantics.md), not a launch limit, and `--all-dims` drops
/// it. Without it `out[2 * i]` "collides" for threads 2^31 apart.
pub fn x_global_id_fits(t: &ThreadIds, launch: &Launch) -> Vec<Bool> {
    let m = t.bid[0].bvmul(&launch.block_dim[0]);
    vec![
        t.bid[0].bvmul_no_overflow(&launch.block_dim[0], false),
        m.bvadd_no_overflow(&t.tid[0], false),
        m.bvadd(&t.tid[0]).bvult(BV::from_u64(1 << 31, W)),
    ]
}

/// Facts about the global ids `bid.d * bdim.d + tid.d` of two threads (grid scope), in the term
/// shape the usual index expressions produce; they let the solver decide
/// `y[blockIdx.x * blockDim.x + threadIdx.x]` without nonlinear reasoning.
///
/// Along `y` and `z` they are true of every launch: at most 65535 blocks of at most 1024 threads,
/// so the global id is below 2^26 (it never wraps), and two threads with equal global ids have
/// equal `bid.d` and `tid.d` (`tid.d < bdim.d`). Along `x` a grid may hold up to (2^31 − 1) ·
/// 1024 threads, so the 32-bit global id can wrap; its injectivity is an *assumption* (fewer than
/// 2^31 threads along `x`, see [`x_global_id_fits`]) made where `Launch::x_id_fits`.
pub fn global_id_facts(ids: [&ThreadIds; 2], launch: &Launch) -> Vec<Bool> {
    let mut out = Vec::new();
    for d in 0..3 {
        if d == 0 && !launch.x_id_fits {
            continue;
        }
        let g = |t: &ThreadIds| t.bid[d].bvmul(&launch.block_dim[d]).bvadd(&t.tid[d]);
        let (g1, g2) = (g(ids[0]), g(ids[1]));
        if d > 0 {
            let limit = BV::from_u64(1 << 26, W);
            out.push(g1.bvult(&limit));
            out.push(g2.bvult(&limit));
        }
        let same_ids = Bool::and(&[&ids[0].bid[d].eq(&ids[1].bid[d]), &ids[0].tid[d].eq(&ids[1].tid[d])]);
        out.push(g1.eq(&g2).implies(&same_ids));
    }
    out
}

/// Facts true of every launch: when `blockDim.d * gridDim.d` does not wrap (as an unsigned
/// product), a thread's global id `bid.d * bdim.d + tid.d` is below it (`bid ≤ gdim − 1`,
/// `tid ≤ bdim − 1`). In the term shapes kernels write, for the grid-stride loop
/// `for (i = gid; i < n; i += blockDim.x * gridDim.x)`, whose instances of two threads meet only
/// at equal iterations (`wrap::row_lemmas` with the global id as the column).
pub fn grid_size_facts(t: &ThreadIds, launch: &Launch) -> Vec<Bool> {
    let mut out = Vec::new();
    for d in 0..3 {
        let (b, g) = (&launch.block_dim[d], &launch.grid_dim[d]);
        let fits = b.bvmul_no_overflow(g, false);
        let gid = t.bid[d].bvmul(b).bvadd(&t.tid[d]);
        for total in [b.bvmul(g), g.bvmul(b)] {
            out.push(fits.implies(gid.bvult(&total)));
            // A signed product of positive factors that does not overflow is positive and
            // does not overflow as an unsigned one either.
            let one = BV::from_u64(1, W);
            let positive = Bool::and(&[&b.bvuge(&one), &g.bvuge(&one), &b.bvmul_no_overflow(g, true)]);
            out.push(positive.implies(Bool::and(&[&fits, &total.bvsgt(BV::from_u64(0, W))])));
        }
    }
    out
}
