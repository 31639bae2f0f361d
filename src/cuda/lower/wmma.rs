//! Warp matrix operations (`nvcuda::wmma`, issue #38): fragments are thread-private registers,
//! `load_matrix_sync` reads a tile, `store_matrix_sync` stores one, `fill_fragment` and
//! `mma_sync` touch registers only.
//!
//! Which lane reads or writes which element of a tile is unspecified, so every lane is taken to
//! read the whole tile (reads never race with each other: this can only report more), and the
//! store is a warp-collective `warp wr` of the whole tile: every lane may write every element,
//! and the lanes of one warp at one instance are one store. A tile is `rows` rows of `cols`
//! elements, `ldm` elements apart, from the pointer: through a multi-dimensional array the flat
//! element is recombined into its indices (`[f / d][f % d]`, which the verifier takes back to
//! `f` exactly). A fragment's elements (`frag.x[i]`) are unknown values; writing them changes
//! no memory; `frag.num_elements` is an unknown count (it differs between architectures).

use super::{strip, Lx, Node, NodeKind, R};
use crate::kpl::ast::{BinOp, Expr, Stmt, StmtKind, Width, WriteMode};

/// A fragment's tile: its rows and columns as a matrix, and how it lies in memory where the
/// type says (`None`: an accumulator, whose load and store name the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fragment {
    rows: u32,
    cols: u32,
    col_major: Option<bool>,
}

/// The fragment a type is (`nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half,
/// nvcuda::wmma::row_major>`, possibly `const` and a reference).
pub(super) fn fragment_type(ty: &str) -> Option<Fragment> {
    let t = ty.trim().trim_end_matches('&').trim();
    let t = t.strip_prefix("const ").unwrap_or(t).trim();
    let args = t.strip_prefix("nvcuda::wmma::fragment<")?.strip_suffix('>')?;
    let parts: Vec<&str> = args.split(',').map(str::trim).collect();
    let [usage, m, n, k, _elem, rest @ ..] = parts.as_slice() else { return None };
    let (m, n, k): (u32, u32, u32) = (m.parse().ok()?, n.parse().ok()?, k.parse().ok()?);
    let layout = rest.first().map(|l| l.ends_with("col_major"));
    let (rows, cols) = match usage.rsplit("::").next()? {
        "matrix_a" => (m, k),
        "matrix_b" => (k, n),
        "accumulator" => (m, n),
        _ => return None,
    };
    let col_major = if usage.ends_with("accumulator") { None } else { Some(layout.unwrap_or(false)) };
    Some(Fragment { rows, cols, col_major })
}

impl Lx<'_> {
    /// Emits `while (cond) { body }` for a loop the source does not write (a tile's rows): its
    /// positions are inside the statement being lowered.
    pub(super) fn emit_simple_loop(&mut self, cond: Expr, body: Vec<StmtKind>) -> R<()> {
        let span = self.cur_span;
        let label = self.label();
        let block = self.open_block(label, None, |lx| {
            for k in body {
                lx.emit(k);
            }
            Ok(())
        })?;
        self.out.push(Stmt { label, kind: StmtKind::While { cond, body: block }, span });
        Ok(())
    }

    /// The fragment `n` names (a local or a reference parameter bound to one).
    fn fragment_of(&self, n: &Node) -> Option<Fragment> {
        match &strip(n).kind {
            NodeKind::DeclRef { decl_id, .. } => self.fragments.get(decl_id).copied(),
            _ => None,
        }
    }

    /// Declares a fragment local (`wmma::fragment<…> acc;`): no KPL state. `None`: not one.
    pub(super) fn fragment_local(&mut self, id: &str, ty: &str) -> Option<()> {
        let f = fragment_type(ty)?;
        self.fragments.insert(id.to_string(), f);
        Some(())
    }

    /// Binds a fragment parameter of an inlined function to the caller's fragment. `None`: the
    /// parameter is not one.
    pub(super) fn fragment_param(&mut self, id: &str, ty: &str, arg: &Node) -> Option<R<()>> {
        fragment_type(ty)?;
        Some(match self.fragment_of(arg) {
            Some(f) => {
                self.fragments.insert(id.to_string(), f);
                Ok(())
            }
            None => Err(self.unsupported("a wmma fragment argument that is not a fragment variable", arg)),
        })
    }

    /// `frag.x[i]` or `frag.num_elements` read: an unknown value. `None`: `n` is neither.
    pub(super) fn fragment_read(&mut self, n: &Node) -> Option<R<(Expr, super::Ty)>> {
        if !self.is_fragment_part(n) {
            return None;
        }
        Some((|| {
            if let (NodeKind::ArraySubscript, [_, i]) = (&strip(n).kind, strip(n).children.as_slice()) {
                self.rvalue(i)?;
            }
            let v = self.fresh("fragment_element");
            self.emit(StmtKind::Local { name: v.clone(), init: None });
            let ty = n.ty.as_deref().and_then(|t| self.scalar_of(t)).unwrap_or(super::Ty::Float);
            Ok((Expr::var(&v), ty))
        })())
    }

    /// Whether `n` is `frag.x[i]` or a member of a fragment.
    pub(super) fn is_fragment_part(&self, n: &Node) -> bool {
        let mut s = strip(n);
        if let (NodeKind::ArraySubscript, [base, _]) = (&s.kind, s.children.as_slice()) {
            s = strip(base);
        }
        match (&s.kind, s.children.first()) {
            (NodeKind::Member { .. }, Some(obj)) => self.fragment_of(obj).is_some(),
            _ => false,
        }
    }

    /// The wmma functions, when `name` is one called on fragments (`None`: another call).
    pub(super) fn wmma_call(&mut self, name: &str, args: &[Node], n: &Node) -> Option<R<()>> {
        let frag_at = |lx: &Self, i: usize| args.get(i).and_then(|a| lx.fragment_of(a));
        match name {
            "fill_fragment" if frag_at(self, 0).is_some() => {
                Some(args.get(1).map_or(Ok(()), |v| self.rvalue(v).map(|_| ())))
            }
            "mma_sync" | "bmma_sync" if frag_at(self, 0).is_some() => Some(Ok(())),
            "load_matrix_sync" => {
                let f = frag_at(self, 0)?;
                Some(self.tile_access(f, args.get(1)?, args.get(2)?, args.get(3), None, n))
            }
            "store_matrix_sync" => {
                let f = frag_at(self, 1)?;
                Some(self.tile_access(f, args.first()?, args.get(2)?, args.get(3), Some(()), n))
            }
            _ => None,
        }
    }

    /// The reads (`store == None`) or the warp-collective store of a fragment's tile at `p`,
    /// rows `ldm` elements apart, in the layout the fragment's type or `layout` (an accumulator's
    /// `mem_row_major`/`mem_col_major`) says.
    fn tile_access(
        &mut self,
        f: Fragment,
        p: &Node,
        ldm: &Node,
        layout: Option<&Node>,
        store: Option<()>,
        n: &Node,
    ) -> R<()> {
        let col_major = match (f.col_major, layout) {
            (Some(c), _) => c,
            (None, Some(l)) => match &strip(l).kind {
                // The stand-in header's enumerators are not the file's: read by name.
                NodeKind::DeclRef { name, .. } if name == "mem_row_major" => false,
                NodeKind::DeclRef { name, .. } if name == "mem_col_major" => true,
                _ => {
                    let (e, _) = self.rvalue(l)?;
                    match e.constant_value() {
                        Some(v) => v == 1,
                        None => return Err(self.unsupported("a wmma layout that is not a constant", n)),
                    }
                }
            },
            (None, None) => return Err(self.unsupported("an accumulator's load without a layout", n)),
        };
        let (lines, len) = if col_major { (f.cols, f.rows) } else { (f.rows, f.cols) };
        let (ldm, _) = self.rvalue(ldm)?;
        let (array, _, off) = self.pointer(p)?;
        let (real, first) = self.in_memory(array, vec![off]);
        let dims: Vec<u32> = match self.arrays.iter().find(|a| a.name == real) {
            Some(a) => a.dims.iter().map(|d| d.unwrap_or(0)).collect(),
            None => return Err(self.unsupported("a wmma tile in memory autosync does not know", n)),
        };
        let flat = linearize(&first, &dims);
        let line = self.fresh("tile_row");
        self.emit(StmtKind::Local { name: line.clone(), init: Some(Expr::Const(0)) });
        let at = Expr::Binary(
            BinOp::Add,
            Box::new(flat),
            Box::new(Expr::Binary(BinOp::Mul, Box::new(Expr::var(&line)), Box::new(ldm))),
        );
        let index = delinearize(at, &dims);
        let value = self.fresh("tile");
        self.emit(StmtKind::Local { name: value.clone(), init: None });
        let width = Width(len);
        let body = match store {
            Some(()) => StmtKind::Write {
                array: real.clone(),
                index,
                value: Expr::var(&value),
                width,
                mode: WriteMode::Warp,
            },
            None => StmtKind::Read { dst: value.clone(), array: real.clone(), index, width },
        };
        let next = StmtKind::Assign {
            name: line.clone(),
            value: Expr::Binary(BinOp::Add, Box::new(Expr::var(&line)), Box::new(Expr::Const(1))),
        };
        let cond = Expr::Binary(BinOp::Lt, Box::new(Expr::var(&line)), Box::new(Expr::Const(lines)));
        self.emit_simple_loop(cond, vec![body, next])
    }
}

/// The flat element of `index` in an array of `dims` (row-major; the first dimension's size
/// does not matter).
fn linearize(index: &[Expr], dims: &[u32]) -> Expr {
    let mut flat: Option<Expr> = None;
    for (k, i) in index.iter().enumerate() {
        flat = Some(match flat {
            None => i.clone(),
            Some(f) => {
                let d = dims.get(k).copied().unwrap_or(1);
                Expr::Binary(
                    BinOp::Add,
                    Box::new(Expr::Binary(BinOp::Mul, Box::new(f), Box::new(Expr::Const(d)))),
                    Box::new(i.clone()),
                )
            }
        });
    }
    flat.unwrap_or(Expr::Const(0))
}

/// The indices of flat element `f` in an array of `dims`, as nested quotients and remainders
/// (`[(f / d2) / d1][(f / d2) % d1][f % d2]`) so that the verifier recombines them to `f` exactly.
fn delinearize(f: Expr, dims: &[u32]) -> Vec<Expr> {
    let n = dims.len().max(1);
    // quotient[k]: the flat element divided by the sizes of the dimensions after k.
    let mut quotient = vec![f; n];
    for k in (0..n - 1).rev() {
        let d = dims.get(k + 1).copied().unwrap_or(1);
        quotient[k] = Expr::Binary(BinOp::UDiv, Box::new(quotient[k + 1].clone()), Box::new(Expr::Const(d)));
    }
    quotient
        .into_iter()
        .enumerate()
        .map(|(k, q)| match k {
            0 => q,
            _ => Expr::Binary(BinOp::URem, Box::new(q), Box::new(Expr::Const(dims[k]))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragment_types_give_their_tiles() {
        let a = fragment_type(
            "nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major>",
        );
        assert_eq!(a, Some(Fragment { rows: 16, cols: 16, col_major: Some(false) }));
        let b = fragment_type("const nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 32, 8, 16, __half, nvcuda::wmma::col_major> &");
        assert_eq!(b, Some(Fragment { rows: 16, cols: 8, col_major: Some(true) }));
        let c = fragment_type("nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float>");
        assert_eq!(c, Some(Fragment { rows: 16, cols: 16, col_major: None }));
        assert_eq!(fragment_type("float"), None);
    }

    #[test]
    fn flat_elements_go_back_to_indices() {
        let f = Expr::var("f");
        let idx = delinearize(f, &[4, 16, 16]);
        let shown: Vec<String> = idx.iter().map(crate::kpl::printer::expr).collect();
        assert_eq!(shown, vec!["udiv(udiv(f, 16), 16)", "urem(udiv(f, 16), 16)", "urem(f, 16)"]);
    }
}
