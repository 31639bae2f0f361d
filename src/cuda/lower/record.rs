//! Structs and vector types (`float4`, `Particle`, `ns::Node`) in the clang lowering.
//!
//! Memory is an array's elements, one word per scalar: a record is one word per scalar member,
//! nested records flattened in declaration order (`a.b.c` is a path), so an array of `float4` is
//! four words per element and `p[i].y` is word `4 * i + 1`. A pointer's offset counts elements
//! of its array: a cast between pointers whose words have one size in bytes is the same
//! elements (`float *` → `float4 *`), one to wider words a wide view whose words cover several
//! elements each (`half *` → `float4 *`: `wide.rs`, which scales word offsets here too).
//!
//! In locals a record is one local per scalar member and, per pointer member, a global array (a
//! kernel parameter's: a `struct` of pointers passed by value, such as a CSR view) or a pointer
//! whose array its first assignment fixes (`Binding::MemberPtr`: a local struct, a by-value
//! parameter or a returned struct of an inlined function). Values move member by member
//! ([`Val`]): a copy is one read and one write per scalar word, and a pointer member's array and
//! element offset. Pointer members of structs in memory are not modelled (refused).
//!
//! An array member (`float a[32][32]`, `T v[N]`) is its elements' words one after another,
//! row-major, among the record's ([`ArrayMember`]): `s.a[r][k]` is the record's word
//! `start + r * 32 + k`, whatever holds the record. Its subscripts are computed, so a local,
//! temporary or call result holding one is a thread-local array of one record
//! (`local_array.rs`'s row per thread), where `p.v[i]` is an element like any other — unless
//! the record also holds pointers, which memory does not hold (a kernel parameter such as
//! `struct TensorInfo { float *data; int sizes[4]; }`, or a copy of one): then it stays one
//! local (or parameter) per word, and its arrays are only read, `d.sizes[i]` a `?:` over them.

use super::{convert, pointee, strip, Binding, Elem, Lx, Ty, R};
use crate::kpl::ast::{ArrayDecl, BinOp, Expr, Space, StmtKind, Width, WriteMode};
use crate::kpl::SourceArray;
use crate::span::Span;
use std::rc::Rc;

/// How deep records may nest (a record containing itself by value cannot be declared, so
/// this only bounds pathological nesting).
const MAX_NESTING: usize = 16;

/// A record type as words: its scalar and pointer members, nested records flattened.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Layout {
    /// The type's name as the source spells it (`float4`, `Particle`).
    pub(super) name: String,
    /// One per word, in layout order: the member's path (`pos.x`) and what it holds.
    pub(super) fields: Vec<(String, Member)>,
    /// The other members of unions, each sharing a word with the first (`u` of
    /// `union { float f; unsigned u; }`): path, word, type. Only members of one size share a
    /// word, so reading one is the exact reinterpretation of the word's bits (floats are
    /// their bits in KPL).
    pub(super) aliases: Vec<(String, usize, Ty)>,
    /// The array members (`float a[32][32]`, `T v[N]`), nested records' ones with their paths
    /// (`in.v`): their elements' words lie in `fields` one after another, row-major, each
    /// element's path its subscripts (`a[3][5]`, `p[1].x`).
    pub(super) arrays: Vec<ArrayMember>,
    /// It is, or holds, a union of several members: a brace list could set any of them, which
    /// the model does not follow.
    pub(super) unions: bool,
}

/// An array member of a record: where its words start among the record's, its dimensions and
/// what each element is. `s.a[r][k]` is word `start + (r * dims[1] + k) * elem.words()`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ArrayMember {
    /// The member's path in the record (`a`, `in.v`).
    pub(super) path: String,
    /// Its first word in the record.
    pub(super) start: usize,
    /// Its dimensions, outermost first (each known and positive).
    pub(super) dims: Vec<u32>,
    /// What one element is: a scalar, or a record of `elem.words()` words.
    pub(super) elem: Elem,
}

impl ArrayMember {
    /// How many words the whole member takes.
    fn words(&self) -> usize {
        self.dims.iter().map(|d| *d as usize).product::<usize>() * self.elem.words() as usize
    }
}

/// How a type lies in memory ([`Lx::packing`]): the size of each word, how many, and the
/// type's alignment, all in bytes but `words`.
#[derive(Clone, Copy, Debug)]
struct Packing {
    word: u32,
    words: u64,
    align: u64,
}

/// What one word of a record holds.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Member {
    Scalar(Ty),
    /// A pointer to scalars or records (a record passed by value may carry arrays).
    Pointer(Elem),
}

/// One word of a record's value.
#[derive(Clone, Debug)]
pub(super) enum Val {
    Scalar(Expr, Ty),
    /// A pointer member's value: its array and what it points to (`None`: indeterminate, as a
    /// default-constructed struct's or a null one — no array is known, and reading through it
    /// is refused), and its element offset.
    Pointer {
        to: Option<(String, Elem)>,
        at: Expr,
    },
}

impl Val {
    /// The value of a member that is zero (value-initialized; a pointer's is null).
    fn zero(m: &Member) -> Val {
        match m {
            Member::Scalar(t) => Val::Scalar(Expr::Const(0), *t),
            Member::Pointer(_) => Val::Pointer { to: None, at: Expr::Const(0) },
        }
    }
}

/// A member of a record, found by name.
enum Found {
    /// The word at this index.
    Word(usize, Member),
    /// A nested record: its first word and its layout.
    Sub(usize, Rc<Layout>),
    /// An array member.
    Array(ArrayMember),
}

impl Layout {
    /// A layout of no words yet.
    fn empty(name: String) -> Layout {
        Layout { name, fields: Vec::new(), aliases: Vec::new(), arrays: Vec::new(), unions: false }
    }

    /// Appends the record `inner` as the member `path` (`pos`: words `pos.x`, `pos.y`, …).
    /// Appends a base class's words, its members under their own paths.
    fn push_base(&mut self, inner: &Layout) {
        let base = self.fields.len();
        self.aliases.extend(inner.aliases.iter().map(|(p, i, t)| (p.clone(), base + i, *t)));
        self.fields.extend(inner.fields.iter().cloned());
        self.arrays.extend(inner.arrays.iter().map(|a| ArrayMember { start: base + a.start, ..a.clone() }));
        self.unions |= inner.unions;
    }

    fn push_record(&mut self, path: &str, inner: &Layout) {
        let base = self.fields.len();
        self.aliases.extend(inner.aliases.iter().map(|(p, i, t)| (format!("{path}.{p}"), base + i, *t)));
        self.fields.extend(inner.fields.iter().map(|(p, m)| (format!("{path}.{p}"), m.clone())));
        self.arrays.extend(inner.arrays.iter().map(|a| ArrayMember {
            path: format!("{path}.{}", a.path),
            start: base + a.start,
            ..a.clone()
        }));
        self.unions |= inner.unions;
    }

    /// Appends the array member `member` of `dims` (each positive) `elem`s: one word per scalar
    /// of each element, row-major. `None` when the record would pass
    /// [`crate::limits::MAX_RECORD_WORDS`] (checked before a word is added).
    fn push_array(&mut self, member: &str, dims: Vec<u32>, elem: Elem) -> Option<()> {
        let count = dims.iter().try_fold(1usize, |n, d| n.checked_mul(*d as usize))?;
        let words = count.checked_mul(elem.words() as usize)?;
        if dims.is_empty() || self.fields.len().checked_add(words)? > crate::limits::MAX_RECORD_WORDS {
            return None;
        }
        let start = self.fields.len();
        for k in 0..count {
            // The element's subscripts, last dimension fastest.
            let mut at = Vec::with_capacity(dims.len());
            let mut rest = k;
            for d in dims.iter().rev() {
                at.push(rest % *d as usize);
                rest /= *d as usize;
            }
            let path: String = std::iter::once(member.to_string())
                .chain(at.iter().rev().map(|i| format!("[{i}]")))
                .collect();
            match &elem {
                Elem::Scalar(t) => self.fields.push((path, Member::Scalar(*t))),
                // An element's own array members are reached through the element (its layout),
                // never by a path of the outer record.
                Elem::Record(l) => {
                    self.unions |= l.unions;
                    let base = self.fields.len();
                    self.aliases
                        .extend(l.aliases.iter().map(|(p, i, t)| (format!("{path}.{p}"), base + i, *t)));
                    self.fields.extend(l.fields.iter().map(|(p, m)| (format!("{path}.{p}"), m.clone())));
                }
            }
        }
        self.arrays.push(ArrayMember { path: member.to_string(), start, dims, elem });
        Some(())
    }

    /// A record member of a union that another member's words hold (`u.v` of `union { float
    /// a[4]; float4 v; }`): its scalars are aliases of consecutive words, as a layout of its own
    /// whose types are the member's. `None` when it is no such member.
    fn aliased_record(&self, name: &str) -> Option<Found> {
        let prefix = format!("{name}.");
        let words: Vec<(String, usize, Ty)> = self
            .aliases
            .iter()
            .filter(|(p, _, _)| p.starts_with(&prefix))
            .map(|(p, i, t)| (p[prefix.len()..].to_string(), *i, *t))
            .collect();
        let start = words.first()?.1;
        // One word each, in order: a nested union's own aliases would repeat a word.
        if words.iter().enumerate().any(|(k, (_, i, _))| *i != start + k) {
            return None;
        }
        let end = start + words.len();
        let arrays = self
            .arrays
            .iter()
            .filter(|a| a.path.starts_with(&prefix) && (start..end).contains(&a.start))
            .map(|a| ArrayMember {
                path: a.path[prefix.len()..].to_string(),
                start: a.start - start,
                ..a.clone()
            })
            .collect();
        let fields = words.into_iter().map(|(p, _, t)| (p, Member::Scalar(t))).collect();
        Some(Found::Sub(
            start,
            Rc::new(Layout {
                name: format!("{}.{name}", self.name),
                fields,
                aliases: Vec::new(),
                arrays,
                unions: self.unions,
            }),
        ))
    }

    pub(super) fn words(&self) -> u32 {
        self.fields.len() as u32
    }

    fn paths(&self) -> Vec<String> {
        self.fields.iter().map(|(p, _)| p.clone()).collect()
    }

    /// Whether the record holds an array member (its elements are picked by computed indices).
    pub(super) fn has_arrays(&self) -> bool {
        !self.arrays.is_empty()
    }

    /// Whether a value of the record lives in memory (a thread-local row) rather than in one
    /// local per word: it holds an array member, whose elements computed subscripts pick, and
    /// no pointer member, which memory does not hold. A record with both (`struct TensorInfo {
    /// float *data; int sizes[4]; }`, a kernel parameter or a copy of one) stays in locals,
    /// where its arrays are read by index and never written.
    pub(super) fn lives_in_memory(&self) -> bool {
        self.has_arrays() && !self.fields.iter().any(|(_, m)| matches!(m, Member::Pointer(_)))
    }

    fn find(&self, name: &str) -> Option<Found> {
        if let Some(a) = self.arrays.iter().find(|a| a.path == name) {
            return Some(Found::Array(a.clone()));
        }
        if let Some(i) = self.fields.iter().position(|(p, _)| p == name) {
            return Some(Found::Word(i, self.fields[i].1.clone()));
        }
        if let Some((_, i, t)) = self.aliases.iter().find(|(p, _, _)| p == name) {
            return Some(Found::Word(*i, Member::Scalar(*t)));
        }
        let prefix = format!("{name}.");
        let Some(start) = self.fields.iter().position(|(p, _)| p.starts_with(&prefix)) else {
            return self.aliased_record(name);
        };
        let fields: Vec<(String, Member)> = self.fields[start..]
            .iter()
            .take_while(|(p, _)| p.starts_with(&prefix))
            .map(|(p, m)| (p[prefix.len()..].to_string(), m.clone()))
            .collect();
        let end = start + fields.len();
        let aliases = self
            .aliases
            .iter()
            .filter(|(p, i, _)| p.starts_with(&prefix) && (start..end).contains(i))
            .map(|(p, i, t)| (p[prefix.len()..].to_string(), i - start, *t))
            .collect();
        let arrays = self
            .arrays
            .iter()
            .filter(|a| a.path.starts_with(&prefix) && (start..end).contains(&a.start))
            .map(|a| ArrayMember {
                path: a.path[prefix.len()..].to_string(),
                start: a.start - start,
                ..a.clone()
            })
            .collect();
        Some(Found::Sub(
            start,
            Rc::new(Layout {
                name: format!("{}.{name}", self.name),
                fields,
                aliases,
                arrays,
                unions: self.unions,
            }),
        ))
    }
}

/// A record held in locals: one binding per word of `layout` (scalars; arrays or pointers
/// for pointer members).
#[derive(Clone, Debug)]
pub(super) struct Locals {
    pub(super) layout: Rc<Layout>,
    pub(super) fields: Vec<Binding>,
}

impl Locals {
    /// The binding of member `name` (a nested record is a record of the same locals).
    pub(super) fn member(&self, name: &str) -> Option<Binding> {
        match self.layout.find(name)? {
            // A union's member reads its word as its own type.
            Found::Word(i, Member::Scalar(ty)) => match self.fields.get(i)? {
                Binding::Scalar { kpl, .. } => Some(Binding::Scalar { kpl: kpl.clone(), ty }),
                b => Some(b.clone()),
            },
            Found::Word(i, _) => self.fields.get(i).cloned(),
            Found::Sub(start, layout) => {
                let fields = self.fields.get(start..start + layout.fields.len())?.to_vec();
                Some(Binding::Record(Rc::new(Locals { layout, fields })))
            }
            // No binding stands for a whole array: its subscripts pick a word
            // ([`Lx::member_subscript`]).
            Found::Array(_) => None,
        }
    }
}

/// A record in memory: the words `prefix ++ [base + i]` of `array`, `i` over the layout.
#[derive(Clone, Debug)]
pub(super) struct InMemory {
    pub(super) array: String,
    /// The indices of the outer dimensions of a multi-dimensional array.
    pub(super) prefix: Vec<Expr>,
    /// The record's first word in the last dimension.
    pub(super) base: Expr,
    pub(super) layout: Rc<Layout>,
}

impl InMemory {
    /// The indices of the record's word `i`, through a view whose words are `scale` elements of
    /// the array each (`wide.rs`; 1 otherwise).
    fn word(&self, i: usize, scale: u32) -> Vec<Expr> {
        let mut index = self.prefix.clone();
        index.push(add(self.base.clone(), i as u32 * scale));
        index
    }
}

/// Where a record-typed expression lives.
#[derive(Clone, Debug)]
pub(super) enum Place {
    Locals(Rc<Locals>),
    Memory(Rc<InMemory>),
}

/// What a member expression (`a.b`, `p->b`, `a[i].b`) denotes.
pub(super) enum MemberPlace {
    /// A member of a record in locals.
    Bound(Binding),
    /// A scalar word in memory.
    Word { array: String, index: Vec<Expr>, ty: Ty },
    /// A nested record in memory.
    Record(Rc<InMemory>),
    /// A pointer member of a record in memory: the indices of its word, the member as
    /// `Record.path` (what names it in every element), what it points to (`stored_pointer.rs`).
    PointerWord { array: String, index: Vec<Expr>, elem: Elem, member: String },
    /// An array member of a record in memory: its first word is `base` (scaled as `base` is).
    Array { array: String, prefix: Vec<Expr>, base: Expr, member: ArrayMember },
    /// An array member of a record held in locals (a kernel parameter by value).
    LocalArray(Rc<Locals>, ArrayMember),
}

/// Where the subscripts of an array member reach ([`Lx::member_subscript`]).
pub(super) enum MemberElement {
    /// A word in memory: the array, what the element is, and the indices of its first word
    /// (without a thread-local array's row); `rest` dimensions are left unsubscripted (a row).
    Memory { array: String, elem: Elem, index: Vec<Expr>, rest: usize },
    /// A word of a record held in locals: the member's word `word` (an expression over the
    /// subscripts), `rest` dimensions left unsubscripted.
    Locals { locals: Rc<Locals>, elem: Elem, first: usize, word: Expr, rest: usize },
}

/// A member's array type (`float[32][32]` → (`float`, [32, 32])); not a pointer to arrays
/// (`float (*)[4]`) nor an array of pointers, whose elements are not laid out.
fn member_array_type(ty: &str) -> Option<(String, Vec<Option<u32>>)> {
    let (elem, dims) = super::array_type(ty)?;
    (!elem.contains('(') && !elem.contains('*')).then_some((elem, dims))
}

/// A member's path as part of a KPL name (`pos.x` → `pos_x`, `dims[2]` → `dims_2`).
fn kpl_part(path: &str) -> String {
    path.replace(['.', '['], "_").replace(']', "")
}

/// `e + k`, without a `+ 0`.
pub(super) fn add(e: Expr, k: u32) -> Expr {
    if k == 0 {
        e
    } else if e == Expr::Const(0) {
        Expr::Const(k)
    } else {
        Expr::bin(BinOp::Add, e, Expr::Const(k))
    }
}

/// `e + k`, a constant `e` folded (an array member's constant word: `s.w[2]` is word `10`).
fn add_folded(e: Expr, k: u32) -> Expr {
    match e {
        Expr::Const(c) => Expr::Const(c.wrapping_add(k)),
        e => add(e, k),
    }
}

/// `e * k`, without a `* 1`.
pub(super) fn scaled(e: Expr, k: u32) -> Expr {
    if k == 1 {
        e
    } else {
        Expr::bin(BinOp::Mul, e, Expr::Const(k))
    }
}

/// `float4` → (float, 4 words of 4 bytes): CUDA's vector types, `half2`/`__nv_bfloat162`
/// pairs, `dim3` — their class, their number of words and the size of each, from one table.
fn builtin_vector(name: &str) -> Option<(Ty, usize, u32)> {
    match name {
        "half2" | "__half2" | "nv_bfloat162" | "__nv_bfloat162" => return Some((Ty::Float, 2, 2)),
        "dim3" => return Some((Ty::UInt, 3, 4)),
        _ => {}
    }
    let n = name.chars().last()?.to_digit(10)? as usize;
    if !(1..=4).contains(&n) {
        return None;
    }
    let (ty, bytes) = match &name[..name.len() - 1] {
        "char" => (Ty::Int, 1),
        "uchar" => (Ty::UInt, 1),
        "short" => (Ty::Int, 2),
        "ushort" => (Ty::UInt, 2),
        "int" => (Ty::Int, 4),
        "uint" => (Ty::UInt, 4),
        "float" => (Ty::Float, 4),
        "long" | "longlong" => (Ty::Int, 8),
        "ulong" | "ulonglong" => (Ty::UInt, 8),
        "double" => (Ty::Float, 8),
        _ => return None,
    };
    Some((ty, n, bytes))
}

/// The bytes of a scalar type or a built-in vector type of CUDA (`sizeof(int4)` is 16).
pub(crate) fn type_bytes(ty: &str) -> Option<u32> {
    scalar_bytes(ty).or_else(|| {
        let (_, n, bytes) = builtin_vector(&bare(ty))?;
        Some(n as u32 * bytes)
    })
}

/// The bytes of a scalar type of CUDA (`None`: not a scalar, or a size we do not assume).
pub(crate) fn scalar_bytes(ty: &str) -> Option<u32> {
    let t: Vec<&str> = ty.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile")).collect();
    Some(match t.join(" ").as_str() {
        "char" | "signed char" | "unsigned char" | "bool" | "int8_t" | "uint8_t" | "__nv_fp8_e4m3"
        | "__nv_fp8_e5m2" => 1,
        "short" | "unsigned short" | "int16_t" | "uint16_t" | "half" | "__half" | "__nv_bfloat16"
        | "nv_bfloat16" | "c10::Half" | "at::Half" | "c10::BFloat16" | "at::BFloat16" => 2,
        "int" | "unsigned int" | "unsigned" | "float" | "int32_t" | "uint32_t" | "uint" => 4,
        "double" | "long long" | "unsigned long long" | "int64_t" | "uint64_t" | "long" | "unsigned long"
        | "size_t" | "clock_t" | "time_t" => 8,
        _ => return None,
    })
}

/// The type name without qualifiers and tag keyword (`const struct Quad` → `Quad`).
pub(super) fn bare(ty: &str) -> String {
    ty.split_whitespace()
        .filter(|w| {
            !matches!(*w, "const" | "volatile" | "struct" | "class" | "union" | "__restrict" | "__restrict__")
        })
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("::")
        .to_string()
}

impl Lx<'_> {
    /// The layout of a record type (vector types, the user's structs), or `None` when the
    /// type is not one we lay out (unions with members of different sizes or kinds, base
    /// classes, arrays of pointers or of unknown size, records past
    /// [`crate::limits::MAX_RECORD_WORDS`]).
    pub(super) fn layout_of(&self, ty: &str) -> Option<Rc<Layout>> {
        self.layout_at(ty, 0).map(Rc::new)
    }

    fn layout_at(&self, ty: &str, depth: usize) -> Option<Layout> {
        if depth > MAX_NESTING || ty.contains('*') || ty.contains('[') || ty.contains('&') {
            return None;
        }
        let name = bare(ty);
        if let Some(state) = super::curand::state_layout(&name) {
            return Some(state);
        }
        if let Some((t, n, _)) = builtin_vector(&name) {
            let fields =
                ["x", "y", "z", "w"][..n].iter().map(|f| (f.to_string(), Member::Scalar(t))).collect();
            return Some(Layout { name, fields, aliases: Vec::new(), arrays: Vec::new(), unions: false });
        }
        let record = self.record_named(&name).or_else(|| {
            let resolved = bare(&self.resolve(&name));
            (resolved != name).then(|| self.record_named(&resolved)).flatten()
        })?;
        if record.tag == "union" {
            return self.union_layout(name, record, depth);
        }
        if record.virtual_bases || (record.bases.is_empty() && record.fields.is_empty()) {
            return None;
        }
        let mut layout = Layout::empty(name);
        // Non-virtual bases first, in declaration order, their members under their own names
        // (`d.data` of `struct D : B { int n; }` is word 0); an empty base adds no word.
        for b in &record.bases {
            if let Some(inner) = self.base_layout(b, depth)? {
                layout.push_base(&inner);
            }
        }
        for (member, mty) in &record.fields {
            let mty = self.resolve(mty);
            if let Some(t) = self.scalar_of(&mty) {
                layout.fields.push((member.clone(), Member::Scalar(t)));
            } else if let Some(e) = pointee(&mty).and_then(|p| self.elem_of_at(p, depth + 1)) {
                layout.fields.push((member.clone(), Member::Pointer(e)));
            } else if let Some((elem, dims)) = member_array_type(&mty) {
                let elem = self.elem_of_at(&elem, depth + 1)?;
                let dims: Vec<u32> = dims.into_iter().map(|d| d.filter(|d| *d > 0)).collect::<Option<_>>()?;
                layout.push_array(member, dims, elem)?;
            } else {
                let inner = self.layout_at(&mty, depth + 1)?;
                layout.push_record(member, &inner);
            }
            if layout.fields.len() > crate::limits::MAX_RECORD_WORDS {
                return None;
            }
        }
        // A member hiding a base's member of the same name (or two bases' members sharing a
        // name): a path would name two words, so no layout.
        let mut paths: Vec<&str> = layout.fields.iter().map(|(p, _)| p.as_str()).collect();
        paths.extend(layout.arrays.iter().map(|a| a.path.as_str()));
        paths.sort_unstable();
        if paths.windows(2).any(|w| w[0] == w[1]) || layout.fields.is_empty() {
            return None;
        }
        Some(layout)
    }

    /// The layout of base class `ty` (`Some(None)`: an empty one, which adds no word); `None`
    /// when it has none.
    fn base_layout(&self, ty: &str, depth: usize) -> Option<Option<Layout>> {
        let ty = self.resolve(ty);
        let empty = self.record_named(&bare(&ty)).is_some_and(|r| {
            r.fields.is_empty()
                && r.bases.iter().all(|b| matches!(self.base_layout(b, depth + 1), Some(None)))
        });
        if empty {
            return Some(None);
        }
        self.layout_at(&ty, depth + 1).map(Some)
    }

    /// The first word of base class `target` inside an object of type `derived` (bases lie
    /// first, in declaration order, [`Lx::layout_of`]); `None` when it is not a base of it.
    pub(super) fn base_start(&self, derived: &str, target: &str, depth: usize) -> Option<usize> {
        if depth > MAX_NESTING {
            return None;
        }
        let record = self.record_named(&bare(&self.resolve(derived)))?;
        let target_name = bare(&self.resolve(target));
        let mut start = 0;
        for b in &record.bases {
            if bare(&self.resolve(b)) == target_name {
                return Some(start);
            }
            if let Some(s) = self.base_start(b, target, depth + 1) {
                return Some(start + s);
            }
            start += self.base_layout(b, depth).flatten().map_or(0, |l| l.fields.len());
        }
        None
    }

    /// A union whose members' words all have one size (scalars, vectors and structs of them,
    /// arrays of those): the words of its first member with the most words, which the others
    /// alias from word 0 — their scalars as `aliases`, their arrays as array members starting
    /// where their words do (`union { float4 v; float a[4]; }`: `a[i]` is `v`'s word `i`).
    /// Reading a member is then the exact reinterpretation of the words' bits (floats are their
    /// bits in KPL). Other unions (members of different word sizes, `double` beside `float2`,
    /// padding, pointers) are no layout: what one member reads of another's bytes is not a
    /// word's bits.
    fn union_layout(
        &self,
        name: String,
        record: &super::super::model::Record,
        depth: usize,
    ) -> Option<Layout> {
        let mut parts: Vec<Layout> = Vec::new();
        let mut size = None;
        for (member, mty) in &record.fields {
            let mty = self.resolve(mty);
            let bytes = self.word_bytes(&mty)?;
            if size.is_some_and(|s| s != bytes) {
                return None;
            }
            size = Some(bytes);
            let mut part = Layout::empty(String::new());
            if let Some(t) = self.scalar_of(&mty) {
                part.fields.push((member.clone(), Member::Scalar(t)));
            } else if let Some((elem, dims)) = member_array_type(&mty) {
                let elem = self.elem_of_at(&elem, depth + 1)?;
                let dims: Vec<u32> = dims.into_iter().map(|d| d.filter(|d| *d > 0)).collect::<Option<_>>()?;
                part.push_array(member, dims, elem)?;
            } else {
                part.push_record(member, &self.layout_at(&mty, depth + 1)?);
            }
            if part.fields.iter().any(|(_, m)| matches!(m, Member::Pointer(_))) {
                return None;
            }
            parts.push(part);
        }
        let most = parts.iter().map(|p| p.fields.len()).max()?;
        let owner = parts.iter().position(|p| p.fields.len() == most)?;
        let mut layout = parts[owner].clone();
        layout.name = name;
        layout.unions |= parts.len() > 1;
        for (k, part) in parts.into_iter().enumerate() {
            if k == owner {
                continue;
            }
            layout.unions |= part.unions;
            layout
                .aliases
                .extend(part.fields.iter().enumerate().map(|(i, (p, m))| (p.clone(), i, member_ty(m))));
            layout.aliases.extend(part.aliases);
            layout.arrays.extend(part.arrays);
        }
        Some(layout)
    }

    /// Whether `ty` names one of the user's unions.
    pub(super) fn is_union(&self, ty: &str) -> bool {
        self.record_named(&bare(ty)).is_some_and(|r| r.tag == "union")
    }

    /// The user's record named `name` (qualified, or by its last part when only one has it).
    fn record_named(&self, name: &str) -> Option<&super::super::model::Record> {
        if let Some(r) = self.model.records.get(name) {
            return Some(r);
        }
        let mut found = self.model.records.iter().filter(|(k, _)| {
            k.rsplit("::").next() == Some(name) || name.rsplit("::").next() == Some(k.as_str())
        });
        let (_, r) = found.next()?;
        found.next().is_none().then_some(r)
    }

    /// What an array of `ty` holds: a scalar or a record (`None`: neither).
    pub(super) fn elem_of(&self, ty: &str) -> Option<Elem> {
        self.elem_of_at(ty, 0)
    }

    fn elem_of_at(&self, ty: &str, depth: usize) -> Option<Elem> {
        match self.scalar_of(ty) {
            Some(t) => Some(Elem::Scalar(t)),
            None => self.layout_at(ty, depth).map(|l| Elem::Record(Rc::new(l))),
        }
    }

    /// The size of every word of `ty`, when they all have one size and no padding lies between
    /// or after them (then a pointer cast between such types is a view of the same words).
    pub(super) fn word_bytes(&self, ty: &str) -> Option<u32> {
        self.packing(ty, 0).map(|p| p.word)
    }

    /// The size in bytes of `ty` (a scalar, a record or an array of them) when its words have
    /// one size and no padding (`None` also past 2^32 bytes).
    pub(super) fn size_of(&self, ty: &str) -> Option<u32> {
        let p = self.packing(ty, 0)?;
        u32::try_from(p.words.checked_mul(u64::from(p.word))?).ok()
    }

    /// How `ty` lies in memory when its words have one size: CUDA's alignments (a scalar's
    /// size; `float2`/`float4`-style vectors their whole size up to 16; an `alignas` the value
    /// written), and `None` where a member would need padding before it or the record after its
    /// last member — a cast to such a type would not see its words one after another.
    fn packing(&self, ty: &str, depth: usize) -> Option<Packing> {
        if depth > MAX_NESTING {
            return None;
        }
        if self.scalar_of(ty).is_some() {
            let word = scalar_bytes(ty).or_else(|| scalar_bytes(&self.resolve(ty)))?;
            return Some(Packing { word, words: 1, align: u64::from(word) });
        }
        if let Some((elem, dims)) = member_array_type(ty) {
            let p = self.packing(&elem, depth + 1)?;
            let count = dims.iter().try_fold(1u64, |n, d| d.and_then(|d| n.checked_mul(u64::from(d))))?;
            return Some(Packing { words: p.words.checked_mul(count)?, ..p });
        }
        let name = bare(ty);
        if let Some((_, n, word)) = builtin_vector(&name) {
            let align = if n == 2 || n == 4 { (n as u32 * word).min(16) } else { word };
            return Some(Packing { word, words: n as u64, align: u64::from(align) });
        }
        let record = self.record_named(&name).or_else(|| self.record_named(&bare(&self.resolve(&name))))?;
        // A derived class's bytes are not claimed: C++ may place members in a base's tail
        // padding, so `sizeof` and views of one are refused.
        if !record.bases.is_empty() || record.fields.is_empty() {
            return None;
        }
        let union = record.tag == "union";
        let (mut word, mut words, mut align) = (None, 0u64, 1u64);
        for (_, mty) in &record.fields {
            let p = self.packing(&self.resolve(mty), depth + 1)?;
            if word.is_some_and(|w| w != p.word) {
                return None;
            }
            word = Some(p.word);
            align = align.max(p.align);
            if union {
                words = words.max(p.words);
            } else {
                // Padding before this member: its offset is not a multiple of its alignment.
                if (words * u64::from(p.word)) % p.align != 0 {
                    return None;
                }
                words = words.checked_add(p.words)?;
            }
        }
        let word = word?;
        if record.aligned {
            // An alignment whose value clang did not give may pad the record: not assumed.
            align = align.max(record.align?);
        }
        (words.checked_mul(u64::from(word))? % align == 0).then_some(Packing { word, words, align })
    }

    /// The array declaration of `kpl` holding `elem`s: a record's words extend the last
    /// dimension; reports name its members (`p[3].y`).
    pub(super) fn declare_array(
        &mut self,
        kpl: &str,
        source: &str,
        space: Space,
        dims: &[Option<u32>],
        elem: &Elem,
        at: Span,
    ) {
        let mut dims = dims.to_vec();
        // Elements split into the units of a narrower view (`wide.rs`): `parts` per element.
        let parts = self.split.get(kpl).copied().unwrap_or(1);
        let fields = match elem {
            Elem::Record(l) => l.paths(),
            Elem::Scalar(_) => Vec::new(),
        };
        if let Some(last) = dims.last_mut() {
            *last = last.map(|d| d * elem.words() * parts);
        }
        if !fields.is_empty() || parts > 1 {
            self.source_arrays.push((
                kpl.to_string(),
                SourceArray {
                    names: vec![source.to_string()],
                    scalar: false,
                    fields,
                    member_stride: 0,
                    parts,
                },
            ));
        }
        if parts > 1 {
            self.wide_view(kpl, parts);
        }
        self.arrays.push(ArrayDecl { name: kpl.to_string(), space, dims, span: at });
    }

    /// A kernel parameter passed by value as a record: its scalar members are parameters
    /// (`img_pitch`, reported as `img.pitch`), its pointer members global arrays.
    pub(super) fn record_param(&mut self, name: &str, layout: Rc<Layout>, at: Span) -> Binding {
        let mut fields = Vec::new();
        for (path, m) in &layout.fields {
            let source = format!("{name}.{path}");
            let kpl = self.fresh(&format!("{name}_{}", kpl_part(path)));
            match m {
                Member::Scalar(t) => {
                    self.params.push(kpl.clone());
                    self.source_params.push((kpl.clone(), source));
                    fields.push(Binding::Scalar { kpl, ty: *t });
                }
                Member::Pointer(elem) => {
                    let elem = elem.clone();
                    self.declare_array(&kpl, &source, Space::Global, &[None], &elem, at);
                    fields.push(Binding::Array { kpl, elem, rank: 1 });
                }
            }
        }
        Binding::Record(Rc::new(Locals { layout, fields }))
    }

    /// Fresh uninitialised locals for a record named `name` in the source: a pointer member
    /// is its element offset, its array fixed at its first assignment.
    pub(super) fn record_locals(&mut self, name: &str, layout: Rc<Layout>) -> Rc<Locals> {
        let mut fields = Vec::new();
        for (path, m) in &layout.fields {
            let kpl = self.fresh(&format!("{name}_{}", kpl_part(path)));
            self.emit(StmtKind::Local { name: kpl.clone(), init: None });
            fields.push(local_member(kpl, m));
        }
        Rc::new(Locals { layout, fields })
    }

    /// Fresh temporaries holding a record's value (an inlined call's result, a `?:`'s): locals,
    /// or a thread-local record for one with array members ([`Self::record_store`]).
    pub(super) fn record_temps(&mut self, layout: Rc<Layout>) -> Place {
        if layout.lives_in_memory() {
            let name = self.fresh("_rec");
            return self.private_record(&name, &name, layout);
        }
        let fields = layout.fields.iter().map(|(_, m)| local_member(self.temp(None), m)).collect();
        Place::Locals(Rc::new(Locals { layout, fields }))
    }

    /// Fresh storage for a record variable named `name` in the source: one local per word, or —
    /// a record with array members, whose elements computed subscripts pick — a thread-local
    /// array of one record (`local_array.rs`: a row per thread, never shared), where `p.v[i]`
    /// is an element like any other.
    pub(super) fn record_store(&mut self, name: &str, layout: Rc<Layout>) -> Place {
        if layout.lives_in_memory() {
            let kpl = self.declare(name);
            return self.private_record(&kpl, name, layout);
        }
        Place::Locals(self.record_locals(name, layout))
    }

    /// The thread-local array `kpl` (`source` in reports) of one record.
    fn private_record(&mut self, kpl: &str, source: &str, layout: Rc<Layout>) -> Place {
        let mut dims: Vec<Option<u32>> = crate::kpl::THREAD_ROW_DIMS.iter().map(|d| Some(*d)).collect();
        dims.push(Some(1));
        let at = self.cur_span;
        self.declare_array(kpl, source, Space::Shared, &dims, &Elem::Record(layout.clone()), at);
        self.private.insert(kpl.to_string());
        Place::Memory(Rc::new(InMemory {
            array: kpl.to_string(),
            prefix: Vec::new(),
            base: Expr::Const(0),
            layout,
        }))
    }

    /// The binding of a record variable whose storage is `place`.
    pub(super) fn record_binding(place: Place) -> Binding {
        match place {
            Place::Locals(l) => Binding::Record(l),
            Place::Memory(m) => Binding::RecordRef(m),
        }
    }

    /// The record a record-typed lvalue denotes.
    pub(super) fn record_place(&mut self, n: &super::Node) -> R<Place> {
        let s = strip(n);
        match self.binding(s) {
            Some(Binding::Record(l)) => return Ok(Place::Locals(l)),
            Some(Binding::RecordRef(m)) => return Ok(Place::Memory(m)),
            Some(_) => return Err(self.unsupported("this variable as a struct", n)),
            None => {}
        }
        match &s.kind {
            super::NodeKind::ArraySubscript => {
                let (array, elem, index) = self.indices(s)?;
                let Elem::Record(layout) = elem else {
                    return Err(self.unsupported("this element as a struct", n));
                };
                Ok(Place::Memory(Rc::new(split(array, index, layout))))
            }
            // A load with a cache hint of a vector or struct (`__ldg(p)` of a `const float4 *`)
            // is the load `*p`.
            super::NodeKind::Call { callee: Some(name) }
                if super::CACHED_LOADS.contains(&name.as_str()) && s.children.len() == 2 =>
            {
                self.pointee_place(&s.children[1], n)
            }
            super::NodeKind::Unary { op, .. } if op == "*" => {
                let p = self.only_child(s)?;
                if let Some(Binding::Record(l)) = self.binding(strip(p)) {
                    return Ok(Place::Locals(l));
                }
                self.pointee_place(p, n)
            }
            // `(Base &)d`, `d.base_member` (clang converts `d` to its base first): the base's
            // words inside the object.
            super::NodeKind::ImplicitCast { cast } | super::NodeKind::CStyleCast { cast }
                if matches!(cast.as_str(), "DerivedToBase" | "UncheckedDerivedToBase") =>
            {
                let inner = self.record_place(self.only_child(s)?)?;
                let target = s.ty.as_deref().unwrap_or_default();
                let derived = match &inner {
                    Place::Locals(l) => l.layout.name.clone(),
                    Place::Memory(m) => m.layout.name.clone(),
                };
                let (Some(layout), Some(start)) =
                    (self.layout_of(target), self.base_start(&derived, target, 0))
                else {
                    return Err(self.unsupported(format!("this conversion to the base class `{target}`"), n));
                };
                Ok(match inner {
                    Place::Locals(l) => match l.fields.get(start..start + layout.fields.len()) {
                        Some(fields) => Place::Locals(Rc::new(Locals { layout, fields: fields.to_vec() })),
                        None => return Err(self.unsupported("this conversion to a base class", n)),
                    },
                    Place::Memory(m) => Place::Memory(Rc::new(InMemory {
                        array: m.array.clone(),
                        prefix: m.prefix.clone(),
                        base: add(m.base.clone(), start as u32 * self.scale(&m.array)),
                        layout,
                    })),
                })
            }
            super::NodeKind::Member { .. } => match self.member(s)? {
                MemberPlace::Bound(Binding::Record(l)) => Ok(Place::Locals(l)),
                MemberPlace::Record(m) => Ok(Place::Memory(m)),
                _ => Err(self.unsupported("this member as a struct", n)),
            },
            _ => Err(self.unsupported(format!("this expression ({}) as a struct", super::kind_name(s)), n)),
        }
    }

    /// The struct pointer `p` points to, in memory (`*p`, and `__ldg(p)` of a struct).
    fn pointee_place(&mut self, p: &super::Node, n: &super::Node) -> R<Place> {
        let (array, elem, off) = self.pointer(strip(p))?;
        let Elem::Record(layout) = elem else {
            return Err(self.unsupported("this pointer as a pointer to a struct", n));
        };
        Ok(Place::Memory(Rc::new(InMemory { array, prefix: Vec::new(), base: off, layout })))
    }

    /// The member a member expression denotes.
    pub(super) fn member(&mut self, n: &super::Node) -> R<MemberPlace> {
        let super::NodeKind::Member { name, arrow, .. } = &n.kind else {
            return Err(self.unsupported("this expression as a member", n));
        };
        if let Some(b) = self.binding(n) {
            return Ok(MemberPlace::Bound(b));
        }
        let base = self.only_child(n)?;
        let this_in_memory = match self.binding(strip(base)) {
            Some(Binding::RecordRef(m)) if *arrow => Some(Place::Memory(m)),
            _ => None,
        };
        let record = if let Some(place) = this_in_memory {
            // `this->x` of a method inlined on an object in memory.
            place
        } else if *arrow {
            if let Some(Binding::Record(l)) = self.binding(strip(base)) {
                // `p->x` where `p` stands for a struct in locals (`f(&s)` inlined).
                return match l.member(name) {
                    Some(b) => Ok(MemberPlace::Bound(self.resolved(b))),
                    None => Err(self.unsupported(format!("the member `{name}` of `{}`", l.layout.name), n)),
                };
            }
            let (array, elem, off) = self.pointer(strip(base))?;
            let Elem::Record(layout) = elem else {
                return Err(self.unsupported("`->` on a pointer that is not to a struct", n));
            };
            Place::Memory(Rc::new(InMemory { array, prefix: Vec::new(), base: off, layout }))
        } else {
            self.record_place(base)?
        };
        match record {
            Place::Locals(l) => match (l.member(name), l.layout.find(name)) {
                (Some(b), _) => Ok(MemberPlace::Bound(self.resolved(b))),
                (None, Some(Found::Array(a))) => Ok(MemberPlace::LocalArray(l.clone(), a)),
                (None, _) => Err(self.unsupported(format!("the member `{name}` of `{}`", l.layout.name), n)),
            },
            Place::Memory(m) => match m.layout.find(name) {
                Some(Found::Word(i, Member::Scalar(ty))) => Ok(MemberPlace::Word {
                    array: m.array.clone(),
                    index: m.word(i, self.scale(&m.array)),
                    ty,
                }),
                Some(Found::Word(i, Member::Pointer(elem))) => Ok(MemberPlace::PointerWord {
                    array: m.array.clone(),
                    index: m.word(i, self.scale(&m.array)),
                    elem,
                    member: format!("{}.{name}", m.layout.name),
                }),
                Some(Found::Sub(start, layout)) => Ok(MemberPlace::Record(Rc::new(InMemory {
                    array: m.array.clone(),
                    prefix: m.prefix.clone(),
                    base: add(m.base.clone(), start as u32 * self.scale(&m.array)),
                    layout,
                }))),
                Some(Found::Array(a)) => Ok(MemberPlace::Array {
                    array: m.array.clone(),
                    prefix: m.prefix.clone(),
                    base: add_folded(m.base.clone(), a.start as u32 * self.scale(&m.array)),
                    member: a,
                }),
                None => Err(self.unsupported(format!("the member `{name}` of `{}`", m.layout.name), n)),
            },
        }
    }

    /// `s.a[r][k]`, `p->v[i]`, a row `s.a[r]` or the member `s.a` alone: where the subscripts
    /// written reach in the array member, each evaluated (outermost first). The index is the
    /// record's words flattened, `first + (r * dims[1] + k) * elem.words()`: the verifier checks
    /// it against the whole array holding the record (its declared dimensions), not against
    /// the member's, so an index past the member's end but inside the record is the word C's
    /// layout reaches (a race on it is still found). `None`: `n` is not a subscript of an array
    /// member (nor one).
    pub(super) fn member_subscript(&mut self, n: &super::Node) -> Option<R<MemberElement>> {
        let mut subs = Vec::new();
        let mut b = strip(n);
        while b.kind == super::NodeKind::ArraySubscript {
            let [base, index] = b.children.as_slice() else { return None };
            subs.push(index);
            b = strip(base);
        }
        subs.reverse();
        if !matches!(b.kind, super::NodeKind::Member { .. }) {
            return None;
        }
        member_array_type(&self.resolve(b.ty.as_deref()?))?;
        Some((|| {
            let place = self.member(b)?;
            let (member, scale) = match &place {
                MemberPlace::Array { member, array, .. } => (member.clone(), self.scale(array)),
                MemberPlace::LocalArray(_, member) => (member.clone(), 1),
                _ => return Err(self.unsupported("this member as an array", b)),
            };
            let dims = &member.dims;
            if subs.len() > dims.len() {
                return Err(self.unsupported("more subscripts than the member's dimensions", n));
            }
            let mut flat: Option<Expr> = None;
            for (k, s) in subs.iter().enumerate() {
                let (e, _) = self.rvalue(s)?;
                flat = Some(match flat {
                    None => e,
                    Some(f) => Expr::bin(BinOp::Add, scaled(f, dims[k]), e),
                });
            }
            let rest = dims.len() - subs.len();
            let inner: u32 = dims[subs.len()..].iter().product::<u32>() * member.elem.words();
            // Constant subscripts fold (`s.v[2]` is word `start + 2`), as a member's word does.
            let offset =
                flat.map(|f| scaled(f, inner * scale)).map(|o| o.constant_value().map_or(o, Expr::Const));
            let elem = member.elem.clone();
            Ok(match place {
                MemberPlace::Array { array, mut prefix, base, .. } => {
                    let word = match offset {
                        None => base,
                        Some(Expr::Const(k)) => add_folded(base, k),
                        Some(o) if base == Expr::Const(0) => o,
                        Some(o) => Expr::bin(BinOp::Add, base, o),
                    };
                    prefix.push(word);
                    MemberElement::Memory { array, elem, index: prefix, rest }
                }
                MemberPlace::LocalArray(locals, member) => MemberElement::Locals {
                    locals,
                    elem,
                    first: member.start,
                    word: offset.unwrap_or(Expr::Const(0)),
                    rest,
                },
                _ => return Err(self.unsupported("this member as an array", b)),
            })
        })())
    }

    /// Hook of `indices`: the element `s.a[r][k]` of an array member of a record in memory —
    /// its array, what it is, its indices. `None`: `n` is no subscript of an array member.
    pub(super) fn member_element(&mut self, n: &super::Node) -> Option<R<(String, Elem, Vec<Expr>)>> {
        let r = self.member_subscript(n)?;
        Some(r.and_then(|m| match m {
            MemberElement::Memory { array, elem, index, rest: 0 } => Ok((array, elem, index)),
            MemberElement::Memory { rest, .. } => Err(self.unsupported(
                format!("an access with {rest} subscript(s) fewer than the array member's dimensions (a row as a value)"),
                n,
            )),
            MemberElement::Locals { .. } => Err(self.unsupported(
                "an element of an array member of a struct held in locals (a kernel parameter by value) as a place in memory (only its value is read)",
                n,
            )),
        }))
    }

    /// Hook of `pointer`: a row of an array member (`s.a[r]`, or `s.v` of a one-dimensional
    /// one) as a pointer to its first element; inside a multi-dimensional array of records, a
    /// view of that array's row (`row_pointer.rs`). `None`: `n` is no array member or
    /// subscript of one.
    pub(super) fn member_row_pointer(&mut self, n: &super::Node) -> Option<R<(String, Elem, Expr)>> {
        let r = self.member_subscript(n)?;
        Some(r.and_then(|m| match m {
            MemberElement::Memory { array, elem, mut index, rest: 1 } => {
                let last = index.pop().unwrap_or(Expr::Const(0));
                if index.is_empty() {
                    return Ok((array, elem, last));
                }
                if self.is_view(&array) {
                    return Err(self.unsupported(
                        "a pointer into an array member of a struct seen through a row pointer",
                        n,
                    ));
                }
                let prefix = self.row_index(&array, index);
                let view = self.row_view(&array, prefix);
                Ok((view, elem, last))
            }
            MemberElement::Memory { .. } => {
                Err(self.unsupported("a pointer to rows of an array member (only to its elements)", n))
            }
            MemberElement::Locals { .. } => Err(
                self.unsupported("a pointer into a struct held in locals (a kernel parameter by value)", n),
            ),
        }))
    }

    /// Hook of `load`: the value of `s.a[i]` where `s` is a record held in locals (a kernel
    /// parameter by value): the word itself for constant subscripts, else the choice among the
    /// member's words by the index (`?:` over them — exact in bounds; an index past the member
    /// reads its last word: the locals are the thread's own, so no race hides there). `None`:
    /// `n` is no subscript of such a member.
    pub(super) fn local_member_value(&mut self, n: &super::Node) -> Option<R<(Expr, Ty)>> {
        let mut b = strip(n);
        while b.kind == super::NodeKind::ArraySubscript {
            b = strip(b.children.first()?);
        }
        let base = strip(b.children.first()?);
        let in_locals = match &base.kind {
            super::NodeKind::Member { .. } | super::NodeKind::DeclRef { .. } => {
                matches!(self.binding(base), Some(Binding::Record(_)))
            }
            _ => false,
        };
        if !in_locals {
            return None;
        }
        let r = self.member_subscript(n)?;
        Some(r.and_then(|m| {
            let MemberElement::Locals { locals, elem: Elem::Scalar(ty), first, word, rest: 0 } = m else {
                return Err(self.unsupported("this use of an array member of a struct held in locals", n));
            };
            let count = match locals.layout.arrays.iter().find(|a| a.start == first) {
                Some(a) => a.words(),
                None => return Err(self.unsupported("this array member", n)),
            };
            let value = |i: usize| match locals.fields.get(first + i) {
                Some(Binding::Scalar { kpl, ty: t }) => Some(convert(Expr::var(kpl), *t, ty)),
                _ => None,
            };
            if let Some(k) = word.constant_value() {
                return match usize::try_from(k).ok().filter(|k| *k < count).and_then(value) {
                    Some(v) => Ok((v, ty)),
                    None => Err(self.unsupported("a constant subscript outside the array member", n)),
                };
            }
            if count > crate::limits::MAX_RECORD_COPY_WORDS {
                return Err(self.unsupported(
                    format!("a computed subscript of an array member of {count} words held in locals"),
                    n,
                ));
            }
            let mut chosen = value(count - 1).ok_or_else(|| self.unsupported("this array member", n))?;
            for i in (0..count - 1).rev() {
                let v = value(i).ok_or_else(|| self.unsupported("this array member", n))?;
                let hit = Expr::bin(BinOp::Eq, word.clone(), Expr::Const(i as u32));
                chosen = Expr::Select(Box::new(hit), Box::new(v), Box::new(chosen));
            }
            Ok((chosen, ty))
        }))
    }

    /// The values of every word of a record-typed expression, reads emitted in order.
    pub(super) fn record_values(&mut self, n: &super::Node, layout: &Rc<Layout>) -> R<Vec<Val>> {
        use super::NodeKind as K;
        let through = |k: &K| match k {
            K::Paren | K::FunctionalCast => true,
            K::ImplicitCast { cast } | K::CStyleCast { cast } => {
                matches!(
                    cast.as_str(),
                    "NoOp" | "LValueToRValue" | "ConstructorConversion" | "UserDefinedConversion"
                )
            }
            K::Constant { .. } => true,
            K::Other { kind } => matches!(
                kind.as_str(),
                "ExprWithCleanups"
                    | "MaterializeTemporaryExpr"
                    | "CXXBindTemporaryExpr"
                    | "CompoundLiteralExpr"
            ),
            _ => false,
        };
        if through(&n.kind) && n.children.len() == 1 {
            return self.record_values(&n.children[0], layout);
        }
        match &n.kind {
            K::Other { kind } if kind == "CXXConstructExpr" || kind == "CXXTemporaryObjectExpr" => {
                match n.children.as_slice() {
                    // The copy or move of another record.
                    [one] => self.record_values(one, layout),
                    // A default-constructed vector or plain struct: indeterminate values.
                    [] => {
                        let mut vals = Vec::new();
                        for (_, m) in &layout.fields {
                            let u = self.fresh("_uninit");
                            self.emit(StmtKind::Local { name: u.clone(), init: None });
                            vals.push(match m {
                                Member::Scalar(t) => Val::Scalar(Expr::var(&u), *t),
                                // No array yet: the member's first assignment gives it one.
                                Member::Pointer(_) => Val::Pointer { to: None, at: Expr::var(&u) },
                            });
                        }
                        Ok(vals)
                    }
                    // `dim3 tile(TILE, TILE)`: its components, a left-out one 1.
                    args if layout.name == "dim3" && args.len() <= 3 => {
                        let mut vals = Vec::new();
                        for k in 0..3 {
                            let v = match args.get(k) {
                                Some(a) if !matches!(&a.kind, K::Other { kind } if kind == "CXXDefaultArgExpr") => {
                                    self.rvalue_as(a, Ty::UInt)?
                                }
                                _ => Expr::Const(1),
                            };
                            vals.push(Val::Scalar(v, Ty::UInt));
                        }
                        Ok(vals)
                    }
                    _ => Err(self.unsupported(format!("a constructor call of `{}`", layout.name), n)),
                }
            }
            K::InitList => self.init_list(n, layout),
            // `dim3 t = threadIdx;`: the built-in's components.
            K::MemberCall { method: Some(m) } if m == "operator dim3" || m == "operator uint3" => {
                let object = n.children.first().and_then(|c| strip(c).children.first()).map(strip);
                let var = match object.map(|o| &o.kind) {
                    Some(K::DeclRef { name, .. }) => name.clone(),
                    _ => return Err(self.unsupported(format!("the conversion `{m}`"), n)),
                };
                let mut vals = Vec::new();
                for field in ['x', 'y', 'z'] {
                    let Some(b) = super::builtin(&var, field) else {
                        return Err(self.unsupported(format!("the conversion `{m}` of `{var}`"), n));
                    };
                    vals.push(Val::Scalar(Expr::Builtin(b), Ty::UInt));
                }
                Ok(vals)
            }
            // `c ? a : b` of structs: word by word, each branch's reads only where it runs.
            K::Conditional if n.children.len() == 3 => {
                let c = self.condition(&n.children[0])?;
                if !self.reads_memory(&n.children[1]) && !self.reads_memory(&n.children[2]) {
                    let a = self.record_values(&n.children[1], layout)?;
                    let b = self.record_values(&n.children[2], layout)?;
                    let select = |x, y| Expr::Select(Box::new(c.clone()), Box::new(x), Box::new(y));
                    let mut vals = Vec::new();
                    for (x, y) in a.into_iter().zip(b) {
                        vals.push(match (x, y) {
                            (Val::Scalar(x, t), Val::Scalar(y, _)) => Val::Scalar(select(x, y), t),
                            (Val::Pointer { to, at: x }, Val::Pointer { to: to_y, at: y }) if to == to_y => {
                                Val::Pointer { to, at: select(x, y) }
                            }
                            _ => {
                                return Err(self.unsupported(
                                    "a `?:` of structs whose pointer members point into different arrays",
                                    n,
                                ))
                            }
                        });
                    }
                    return Ok(vals);
                }
                let slots = self.record_temps(layout.clone());
                let span = self.cur_span;
                let label = self.label();
                let assign = |lx: &mut Self, e: &super::Node| -> R<()> {
                    let vals = lx.record_values(e, layout)?;
                    lx.write_record(slots.clone(), vals, e)
                };
                let then = self.open_block(label, None, |lx| assign(lx, &n.children[1]))?;
                let el = self.label();
                let els = self.open_block(el, None, |lx| assign(lx, &n.children[2]))?;
                self.out.push(crate::kpl::ast::Stmt {
                    label,
                    kind: StmtKind::If { cond: c, then, els: Some(els) },
                    span,
                });
                self.read_record(slots, n)
            }
            K::Call { callee: Some(name) } if name.starts_with("curand") => match self.curand_call(n, name) {
                Some(r) => r.map(|vals| vals.into_iter().map(|(e, t)| Val::Scalar(e, t)).collect()),
                None => Err(self.unsupported(format!("the result of `{name}`"), n)),
            },
            K::Call { callee: Some(name) } if name.starts_with("make_") => {
                let args = &n.children[1.min(n.children.len())..];
                if args.len() != layout.fields.len() {
                    return Err(self.unsupported(format!("`{name}` with {} arguments", args.len()), n));
                }
                let mut vals = Vec::new();
                for (a, (_, m)) in args.iter().zip(&layout.fields) {
                    let Member::Scalar(t) = m else {
                        return Err(self.unsupported(format!("`{name}` of pointers"), n));
                    };
                    vals.push(Val::Scalar(self.rvalue_as(a, *t)?, *t));
                }
                Ok(vals)
            }
            // `__ldg(p)` of a vector or struct: the load `*p` (`record_place`).
            K::Call { callee: Some(name) }
                if super::CACHED_LOADS.contains(&name.as_str()) && n.children.len() == 2 =>
            {
                let place = self.record_place(n)?;
                self.read_record(place, n)
            }
            K::Call { .. } | K::OperatorCall { .. } => {
                let args = &n.children[1.min(n.children.len())..];
                let callee = n.children.first().map(super::strip_callee);
                let model = self.model;
                let f = match callee.map(|c| &c.kind) {
                    Some(K::DeclRef { decl_id, .. }) => model.definition(decl_id),
                    _ => None,
                };
                let Some(f) = f else {
                    // A function without a body (our headers' `__half22float2`): each word a
                    // pure function of the arguments' values.
                    let name = match &n.kind {
                        K::Call { callee: Some(name) } => name.clone(),
                        _ => return Err(self.unsupported(format!("a call returning `{}`", layout.name), n)),
                    };
                    let vals = self.opaque_args(&name, args, n)?;
                    let mut out = Vec::new();
                    for (path, m) in &layout.fields {
                        let Member::Scalar(t) = m else {
                            return Err(self.unsupported(format!("`{name}` returning pointers"), n));
                        };
                        out.push(Val::Scalar(Expr::Call(format!("{name}.{path}"), vals.clone()), *t));
                    }
                    return Ok(out);
                };
                match self.inline_into(n, f, args, Some(super::Want::Record(layout.clone())))? {
                    Some(super::Slot::Record(slots)) => self.read_record(slots, n),
                    _ => Err(self.unsupported("this call's struct value", n)),
                }
            }
            _ => {
                let place = self.record_place(n)?;
                self.read_record(place, n)
            }
        }
    }

    /// Where an inlined call's record result lies, when `n` is a call (through the conversions,
    /// temporaries and elidable copies of its value) of a function with a body returning a
    /// record with array members: a fresh thread-local record no one else names, which the
    /// variable or reference it initializes can own rather than copy word by word. `None`: `n`
    /// is no such call (nothing is lowered).
    pub(super) fn call_result_place(&mut self, n: &super::Node, layout: &Rc<Layout>) -> Option<R<Place>> {
        use super::NodeKind as K;
        if !layout.lives_in_memory() {
            return None;
        }
        let mut c = n;
        loop {
            let through = match &c.kind {
                K::Paren | K::FunctionalCast => true,
                K::ImplicitCast { cast } | K::CStyleCast { cast } => {
                    matches!(cast.as_str(), "NoOp" | "ConstructorConversion")
                }
                K::Other { kind } => matches!(
                    kind.as_str(),
                    "ExprWithCleanups"
                        | "MaterializeTemporaryExpr"
                        | "CXXBindTemporaryExpr"
                        | "CXXConstructExpr"
                ),
                _ => false,
            };
            match c.children.as_slice() {
                [one] if through => c = one,
                _ => break,
            }
        }
        if !matches!(c.kind, K::Call { .. } | K::OperatorCall { .. }) {
            return None;
        }
        let model = self.model;
        let f = match c.children.first().map(super::strip_callee).map(|x| &x.kind) {
            Some(K::DeclRef { decl_id, .. }) => model.definition(decl_id)?,
            _ => return None,
        };
        let args = &c.children[1..];
        Some(match self.inline_into(c, f, args, Some(super::Want::Record(layout.clone()))) {
            Ok(Some(super::Slot::Record(place))) => Ok(place),
            Ok(_) => Err(self.unsupported("this call's struct value", c)),
            Err(e) => Err(e),
        })
    }

    /// `{a, b, …}`: the members in order, nested records from nested lists or values, the
    /// rest zero (C++ value-initializes members an aggregate list leaves out).
    fn init_list(&mut self, n: &super::Node, layout: &Rc<Layout>) -> R<Vec<Val>> {
        if (layout.unions || !layout.aliases.is_empty()) && !n.children.is_empty() {
            // Which member of a union a list sets (`{.u = 1}`) is not in the model.
            return Err(
                self.unsupported(format!("an initializer list of `{}`, which holds a union", layout.name), n)
            );
        }
        let mut vals: Vec<Val> = Vec::new();
        let mut items = n.children.iter();
        let mut i = 0;
        while i < layout.fields.len() {
            let (path, m) = &layout.fields[i];
            let head = path.split(['.', '[']).next().unwrap_or(path);
            if let Some(a) = layout.arrays.iter().find(|a| a.path == head && a.start == i) {
                // An array member: clang's list for it is fully braced, one list per dimension.
                let words = a.words();
                let v = match items.next() {
                    Some(item) if !is_value_init(item) => self.array_init(item, &a.dims, &a.elem)?,
                    _ => zeros(&a.elem, words / a.elem.words() as usize),
                };
                i += words;
                vals.extend(v);
                continue;
            }
            let nested = path.contains('.');
            match items.next() {
                None => {
                    vals.push(Val::zero(m));
                    i += 1;
                }
                Some(item) if nested => {
                    let Some(Found::Sub(_, sub)) = layout.find(head) else {
                        return Err(self.unsupported("this initializer", item));
                    };
                    let v = if is_value_init(item) {
                        sub.fields.iter().map(|(_, m)| Val::zero(m)).collect()
                    } else {
                        self.record_values(item, &sub)?
                    };
                    i += v.len();
                    vals.extend(v);
                }
                Some(item) if is_value_init(item) => {
                    vals.push(Val::zero(m));
                    i += 1;
                }
                Some(item) => {
                    vals.push(match m {
                        Member::Scalar(t) => Val::Scalar(self.rvalue_as(item, *t)?, *t),
                        Member::Pointer(_) => {
                            let (array, elem, at) = self.pointer(strip(item))?;
                            Val::Pointer { to: Some((array, elem)), at }
                        }
                    });
                    i += 1;
                }
            }
        }
        Ok(vals)
    }

    /// The words of the brace list `list` for an array of `dims` `elem`s, row-major; the
    /// elements it leaves out are zero (C++ value-initializes them).
    fn array_init(&mut self, list: &super::Node, dims: &[u32], elem: &Elem) -> R<Vec<Val>> {
        let Some((&outer, inner)) = dims.split_first() else {
            return Err(self.unsupported("this initializer of an array member", list));
        };
        if list.kind != super::NodeKind::InitList {
            return Err(self.unsupported("this initializer of an array member (only a brace list)", list));
        }
        if list.children.len() > outer as usize {
            return Err(self.unsupported("more initializers than elements", list));
        }
        let per: usize = inner.iter().map(|d| *d as usize).product();
        let mut vals = Vec::new();
        for item in &list.children {
            if is_value_init(item) {
                vals.extend(zeros(elem, per));
            } else if !inner.is_empty() {
                vals.extend(self.array_init(strip(item), inner, elem)?);
            } else {
                match elem {
                    Elem::Scalar(t) => vals.push(Val::Scalar(self.rvalue_as(item, *t)?, *t)),
                    Elem::Record(l) => vals.extend(self.record_values(item, l)?),
                }
            }
        }
        let left = (outer as usize - list.children.len()) * per;
        vals.extend(zeros(elem, left));
        Ok(vals)
    }

    /// Every word of a record, read.
    pub(super) fn read_record(&mut self, place: Place, n: &super::Node) -> R<Vec<Val>> {
        match place {
            Place::Locals(l) => l
                .fields
                .iter()
                .zip(&l.layout.fields)
                .map(|(b, (_, m))| match self.resolved(b.clone()) {
                    // The word as the layout's member reads it (a union's other member
                    // reinterprets the bits: no conversion).
                    Binding::Scalar { kpl, .. } => Ok(Val::Scalar(Expr::Var(kpl), member_ty(m))),
                    // A kernel parameter's pointer member: its global array from the start.
                    Binding::Array { kpl, elem, rank: 1 } => {
                        Ok(Val::Pointer { to: Some((kpl, elem)), at: Expr::Const(0) })
                    }
                    Binding::Ptr { array, elem, offset } => {
                        Ok(Val::Pointer { to: Some((array, elem)), at: Expr::Var(offset) })
                    }
                    // Not assigned yet: the copy has no array either.
                    Binding::MemberPtr { offset, .. } => Ok(Val::Pointer { to: None, at: Expr::Var(offset) }),
                    _ => {
                        Err(self
                            .unsupported(format!("copying `{}`, which holds this member", l.layout.name), n))
                    }
                })
                .collect(),
            Place::Memory(m) => {
                self.copy_limit(&m.layout, n)?;
                let mut vals = Vec::new();
                for (i, (_, member)) in m.layout.fields.iter().enumerate() {
                    let dst = self.temp(None);
                    // A thread-local array's element (`mine[1] = mine[0]`) behind the thread's row.
                    let (array, index) = self.in_memory(m.array.clone(), m.word(i, self.scale(&m.array)));
                    self.emit(StmtKind::Read { dst: dst.clone(), array, index, width: Width::ONE });
                    // A pointer member's word in memory is an opaque word: copied to memory only
                    // (a struct in locals refuses it as a pointer's value).
                    vals.push(Val::Scalar(Expr::Var(dst), member_ty(member)));
                }
                Ok(vals)
            }
        }
    }

    /// Stores `vals` into every word of a record.
    pub(super) fn write_record(&mut self, place: Place, vals: Vec<Val>, n: &super::Node) -> R<()> {
        match place {
            Place::Locals(l) => {
                for ((b, (_, m)), v) in l.fields.iter().zip(&l.layout.fields).zip(vals) {
                    match (b, v) {
                        // Converted to the layout's member, whose bits the local holds.
                        (Binding::Scalar { kpl, .. }, Val::Scalar(v, vt)) => {
                            self.emit(StmtKind::Assign {
                                name: kpl.clone(),
                                value: convert(v, vt, member_ty(m)),
                            });
                        }
                        (Binding::MemberPtr { offset, elem }, Val::Pointer { to, at }) => {
                            if let Some((array, e)) = to {
                                self.fix_member_array(offset, elem, array, &e, n)?;
                            }
                            self.emit(StmtKind::Assign { name: offset.clone(), value: at });
                        }
                        (Binding::MemberPtr { .. }, Val::Scalar(..)) => {
                            return Err(self.unsupported(
                                format!(
                                    "a pointer member of `{}` copied from a struct in memory",
                                    l.layout.name
                                ),
                                n,
                            ))
                        }
                        _ => {
                            return Err(self.unsupported(
                                format!("assigning `{}`, which holds pointers", l.layout.name),
                                n,
                            ))
                        }
                    }
                }
            }
            Place::Memory(m) => {
                self.copy_limit(&m.layout, n)?;
                for (i, (v, (_, member))) in vals.into_iter().zip(&m.layout.fields).enumerate() {
                    let Val::Scalar(v, vt) = v else {
                        return Err(self.unsupported(
                            format!("storing `{}`, which holds pointers, in memory", m.layout.name),
                            n,
                        ));
                    };
                    let value = convert(v, vt, member_ty(member));
                    let (array, index) = self.in_memory(m.array.clone(), m.word(i, self.scale(&m.array)));
                    self.emit(StmtKind::Write {
                        array,
                        index,
                        value,
                        width: Width::ONE,
                        mode: WriteMode::Plain,
                    });
                }
            }
        }
        Ok(())
    }

    /// A record in memory is copied word by word: one past
    /// [`crate::limits::MAX_RECORD_COPY_WORDS`] is refused rather than lowered to thousands of
    /// statements.
    fn copy_limit(&self, layout: &Layout, n: &super::Node) -> R<()> {
        if layout.fields.len() > crate::limits::MAX_RECORD_COPY_WORDS {
            return Err(self.unsupported(
                format!(
                    "copying `{}` ({} words; at most {} are copied word by word)",
                    layout.name,
                    layout.fields.len(),
                    crate::limits::MAX_RECORD_COPY_WORDS
                ),
                n,
            ));
        }
        Ok(())
    }

    /// `a = b` on records (clang's `operator=` of a struct or vector).
    pub(super) fn assign_record(&mut self, lhs: &super::Node, rhs: &super::Node, n: &super::Node) -> R<()> {
        let ty = lhs.ty.clone().unwrap_or_default();
        let Some(layout) = self.layout_of(&self.resolve(&ty)) else {
            return Err(self.unsupported(format!("assigning a `{ty}`"), n));
        };
        let vals = self.record_values(rhs, &layout)?;
        let place = self.record_place(lhs)?;
        self.write_record(place, vals, n)
    }

    /// A reference to the record `init` (`const Body &b = tile[k]`, a `float3 &` parameter): the
    /// record's locals, or its place in memory with the element fixed where it is bound.
    pub(super) fn record_ref(&mut self, init: &super::Node, layout: Rc<Layout>) -> R<Binding> {
        if super::refs::under_temporary(init).1 {
            // A `const` reference to a value (a call's result): C++ binds it to a temporary
            // holding a copy.
            if let Some(place) = self.call_result_place(init, &layout) {
                return Ok(Self::record_binding(place?));
            }
            let vals = self.record_values(init, &layout)?;
            let place = self.record_temps(layout);
            self.write_record(place.clone(), vals, init)?;
            return Ok(Self::record_binding(place));
        }
        match self.record_place(init)? {
            Place::Locals(l) => Ok(Binding::Record(l)),
            Place::Memory(m) => {
                let base = match &m.base {
                    Expr::Const(_) | Expr::Var(_) => m.base.clone(),
                    e => Expr::var(&self.temp(Some(e.clone()))),
                };
                Ok(Binding::RecordRef(Rc::new(InMemory {
                    array: m.array.clone(),
                    prefix: m.prefix.clone(),
                    base,
                    layout,
                })))
            }
        }
    }

    /// A local record declaration: fresh locals, then the initializer's values.
    pub(super) fn record_local(
        &mut self,
        v: &super::Node,
        name: &str,
        id: &str,
        layout: Rc<Layout>,
    ) -> R<()> {
        // A default-constructed record in memory initializes nothing (its words stay as they
        // were, which C leaves indeterminate).
        if let Some(place) = v.children.first().and_then(|e| self.call_result_place(e, &layout)) {
            // `Packet p = load_packet(ptr);`: the variable is the call's result, and reports
            // name it.
            let place = place?;
            if let Place::Memory(m) = &place {
                if let Some((_, view)) = self.source_arrays.iter_mut().find(|(k, _)| *k == m.array) {
                    view.names = vec![name.to_string()];
                }
            }
            self.bindings.insert(id.to_string(), Self::record_binding(place));
            return Ok(());
        }
        let init = match v.children.first() {
            Some(e) if layout.lives_in_memory() && super::is_default_construction(e) => None,
            Some(e) => Some(self.record_values(e, &layout)?),
            None => None,
        };
        let place = self.record_store(name, layout);
        if let Some(vals) = init {
            self.write_record(place.clone(), vals, v)?;
        }
        self.bindings.insert(id.to_string(), Self::record_binding(place));
        Ok(())
    }
}

/// The zero words of `count` `elem`s (value-initialized).
fn zeros(elem: &Elem, count: usize) -> Vec<Val> {
    let one: Vec<Val> = match elem {
        Elem::Scalar(t) => vec![Val::Scalar(Expr::Const(0), *t)],
        Elem::Record(l) => l.fields.iter().map(|(_, m)| Val::zero(m)).collect(),
    };
    std::iter::repeat_n(one, count).flatten().collect()
}

/// clang's `ImplicitValueInitExpr`: a member an initializer list leaves out (zero).
fn is_value_init(n: &super::Node) -> bool {
    matches!(&n.kind, super::NodeKind::Other { kind } if kind == "ImplicitValueInitExpr")
}

/// The binding of the local `kpl` holding member `m` of a record in locals.
fn local_member(kpl: String, m: &Member) -> Binding {
    match m {
        Member::Scalar(t) => Binding::Scalar { kpl, ty: *t },
        Member::Pointer(elem) => Binding::MemberPtr { offset: kpl, elem: elem.clone() },
    }
}

/// The type class of a member's word (a pointer member's word is an opaque integer).
pub(super) fn member_ty(m: &Member) -> Ty {
    match m {
        Member::Scalar(t) => *t,
        Member::Pointer(_) => Ty::UInt,
    }
}

/// A record element at `index` (its last index the record's first word).
fn split(array: String, mut index: Vec<Expr>, layout: Rc<Layout>) -> InMemory {
    let base = index.pop().unwrap_or(Expr::Const(0));
    InMemory { array, prefix: index, base, layout }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_members_are_their_elements_words_row_major() {
        let mut pair = Layout::empty("float2".into());
        pair.fields = vec![("x".into(), Member::Scalar(Ty::Float)), ("y".into(), Member::Scalar(Ty::Float))];
        let mut l = Layout::empty("Tile".into());
        l.fields.push(("n".into(), Member::Scalar(Ty::Int)));
        l.push_array("a", vec![2, 3], Elem::Scalar(Ty::Float)).expect("fits");
        l.push_array("p", vec![2], Elem::Record(Rc::new(pair))).expect("fits");
        let paths: Vec<&str> = l.fields.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "n", "a[0][0]", "a[0][1]", "a[0][2]", "a[1][0]", "a[1][1]", "a[1][2]", "p[0].x", "p[0].y",
                "p[1].x", "p[1].y"
            ]
        );
        match l.find("a") {
            Some(Found::Array(a)) => assert_eq!((a.start, a.dims.clone(), a.words()), (1, vec![2, 3], 6)),
            _ => panic!("`a` is an array member"),
        }
        match l.find("p") {
            Some(Found::Array(a)) => assert_eq!((a.start, a.elem.words(), a.words()), (7, 2, 4)),
            _ => panic!("`p` is an array member"),
        }
        // Nested: the outer record's path and first word, the inner member's dims.
        let mut outer = Layout::empty("Outer".into());
        outer.fields.push(("z".into(), Member::Scalar(Ty::Int)));
        outer.push_record("t", &l);
        match outer.find("t.a") {
            Some(Found::Array(a)) => assert_eq!(a.start, 2),
            _ => panic!("`t.a` is an array member"),
        }
        match outer.find("t") {
            Some(Found::Sub(1, sub)) => {
                assert!(matches!(sub.find("a"), Some(Found::Array(a)) if a.start == 1))
            }
            _ => panic!("`t` is a nested record at word 1"),
        }
        assert!(kpl_part("a[1][2].x") == "a_1_2_x" && kpl_part("pos.x") == "pos_x");
    }

    #[test]
    fn records_past_the_word_limit_are_no_layout() {
        let mut l = Layout::empty("Big".into());
        let too_many = crate::limits::MAX_RECORD_WORDS as u32 + 1;
        assert!(l.push_array("a", vec![too_many], Elem::Scalar(Ty::Float)).is_none());
        assert!(l.push_array("b", vec![u32::MAX, u32::MAX], Elem::Scalar(Ty::Float)).is_none());
        assert!(l.fields.is_empty(), "nothing is added before the check");
    }
}
