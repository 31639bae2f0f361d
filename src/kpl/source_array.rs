//! How a KPL array looks in the source it was lowered from, for reports: the front end may
//! rename an array (`local` is a KPL keyword: `local_2`), merge the arrays one pointer may point
//! to into one array whose leading index selects the member, and store a struct or vector
//! element as consecutive words of its last dimension. A report names the element the source
//! names (`tile[3][17]`, `pts[4].y`, `count`), never the KPL one (`element 307 of tile`).

use super::ast::ArrayDecl;

/// The source view of one KPL array (`Kernel::source_arrays`, keyed by the KPL name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceArray {
    /// The C names; with more than one, the leading KPL index selects the member (a pointer
    /// group: `a_or_b[1][i]` is `b[i]`).
    pub names: Vec<String>,
    /// A scalar (`__shared__ int count;`), KPL's one-element array.
    pub scalar: bool,
    /// The words of one struct or vector element (`x`, `y`, `lo.x`): the last KPL dimension
    /// holds `fields.len()` words per element. Empty for scalar elements.
    pub fields: Vec<String>,
    /// With more than one name and a one-dimensional KPL array: the words of each member,
    /// which lie one after another (`a_b[stride + i]` is `b[i]`). 0: the leading index
    /// selects the member.
    pub member_stride: u64,
    /// Each element is `parts` KPL elements (an array also seen through a narrower type: an
    /// `int` array read as bytes is 4 KPL elements per `int`); 1 otherwise. Reports name the
    /// source element that holds the KPL one.
    pub parts: u32,
}

impl SourceArray {
    /// The plain view of an array the source declares under `name`.
    pub fn named(name: &str) -> SourceArray {
        SourceArray {
            names: vec![name.to_string()],
            scalar: false,
            fields: Vec::new(),
            member_stride: 0,
            parts: 1,
        }
    }
}

/// The source text of element `index` (row-major over `decl.dims`) of `decl`, seen through
/// `view` when the front end gave one: `tile[3][17]`, `b[5]`, `pts[4].y`, `count`. Without a
/// view (a KPL file) the KPL array's own indices: `A[2][7]`.
pub fn element_text(decl: &ArrayDecl, view: Option<&SourceArray>, index: u64) -> String {
    let mut digits = delinearize(&decl.dims, index);
    if let (Some(v), Some(last)) = (view, digits.last_mut()) {
        *last /= u64::from(v.parts.max(1));
    }
    let mut name = decl.name.clone();
    let mut field = None;
    if let Some(v) = view {
        if v.scalar {
            return v.names.first().cloned().unwrap_or(name);
        }
        if v.names.len() > 1 && digits.len() == 1 && v.member_stride > 0 {
            let member = digits[0] / v.member_stride;
            digits[0] %= v.member_stride;
            name = v.names.get(member as usize).cloned().unwrap_or(name);
        } else if v.names.len() > 1 && digits.len() > 1 {
            let member = digits.remove(0);
            name = v.names.get(member as usize).cloned().unwrap_or(name);
        } else if let Some(n) = v.names.first() {
            name = n.clone();
        }
        let k = v.fields.len() as u64;
        if k > 0 {
            if let Some(last) = digits.last_mut() {
                field = v.fields.get((*last % k) as usize).cloned();
                *last /= k;
            }
        }
    }
    let mut out = name;
    for d in digits {
        out.push_str(&format!("[{d}]"));
    }
    if let Some(f) = field {
        out.push('.');
        out.push_str(&f);
    }
    out
}

/// The indices of a row-major linear `index` over `dims` (the first dimension may be
/// unknown: it takes what the others leave). A dimension after the first that is unknown
/// leaves the index linear.
fn delinearize(dims: &[Option<u32>], index: u64) -> Vec<u64> {
    let inner: Option<Vec<u64>> = dims.iter().skip(1).map(|d| d.map(u64::from).filter(|d| *d > 0)).collect();
    let Some(inner) = inner else { return vec![index] };
    let mut out = vec![0; inner.len() + 1];
    let mut rest = index;
    for (i, d) in inner.iter().enumerate().rev() {
        out[i + 1] = rest % d;
        rest /= d;
    }
    out[0] = rest;
    out
}

/// The source text of an access at the given subscripts (those the source writes: a
/// thread-local array's row left out), each shown as the C `int` it is when it is one
/// (`tile[-1]`, `t[3][17]`, `pts[4].y`): unlike [`element_text`], subscripts are not
/// recombined, so an out-of-bounds one stays as the access wrote it. Without a view, the KPL
/// array's own name.
pub fn subscripts_text(decl: &ArrayDecl, view: Option<&SourceArray>, subscripts: &[u64]) -> String {
    let mut shown: Vec<i64> = subscripts.iter().map(|v| as_c_int(*v)).collect();
    let mut name = view.and_then(|v| v.names.first().cloned()).unwrap_or_else(|| decl.name.clone());
    let mut field = None;
    if let Some(v) = view {
        if v.scalar {
            return name;
        }
        if let Some(last) = shown.last_mut() {
            *last = last.div_euclid(i64::from(v.parts.max(1)));
        }
        let k = v.fields.len() as i64;
        if k > 0 {
            if let Some(last) = shown.last_mut() {
                field = v.fields.get(last.rem_euclid(k) as usize).cloned();
                *last = last.div_euclid(k);
            }
        }
    }
    for s in shown {
        name.push_str(&format!("[{s}]"));
    }
    if let Some(f) = field {
        name.push('.');
        name.push_str(&f);
    }
    name
}

/// The element count of the dimensions `dims` (those the source declares) as a report says it:
/// `17 elements`, `16 × 17 elements` (struct and vector elements counted as elements).
pub fn extent_text(view: Option<&SourceArray>, dims: &[Option<u32>]) -> String {
    let k = view.map_or(0, |v| v.fields.len() as u32);
    let parts = view.map_or(1, |v| v.parts.max(1));
    let n = dims.len();
    let parts: Vec<String> = dims
        .iter()
        .enumerate()
        .map(|(i, d)| match d {
            Some(d) if i + 1 == n && k > 0 => (d / parts / k).to_string(),
            Some(d) if i + 1 == n => (d / parts).to_string(),
            Some(d) => d.to_string(),
            None => "?".to_string(),
        })
        .collect();
    let one = parts.len() == 1 && parts[0] == "1";
    format!("{} element{}", parts.join(" × "), if one { "" } else { "s" })
}

/// A 32-bit word read as C's `int` (the subscripts of the source are ints, or unsigned values
/// below 2^31 that read the same).
fn as_c_int(v: u64) -> i64 {
    i64::from(v as u32 as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kpl::{Space, Span};

    fn decl(dims: &[Option<u32>]) -> ArrayDecl {
        ArrayDecl { name: "t".into(), space: Space::Shared, dims: dims.to_vec(), span: Span::default() }
    }

    #[test]
    fn rows_and_columns() {
        assert_eq!(element_text(&decl(&[Some(16), Some(17)]), None, 3 * 17 + 5), "t[3][5]");
        assert_eq!(element_text(&decl(&[None]), None, 42), "t[42]");
        assert_eq!(element_text(&decl(&[Some(2), Some(3), Some(4)]), None, 23), "t[1][2][3]");
    }

    #[test]
    fn through_the_source_view() {
        let scalar = SourceArray {
            names: vec!["count".into()],
            scalar: true,
            fields: vec![],
            member_stride: 0,
            parts: 1,
        };
        assert_eq!(element_text(&decl(&[Some(1)]), Some(&scalar), 0), "count");
        let group = SourceArray {
            names: vec!["a".into(), "b".into()],
            scalar: false,
            fields: vec![],
            member_stride: 0,
            parts: 1,
        };
        assert_eq!(element_text(&decl(&[Some(2), Some(64)]), Some(&group), 64 + 5), "b[5]");
        let pts = SourceArray {
            names: vec!["pts".into()],
            scalar: false,
            fields: vec!["x".into(), "y".into()],
            member_stride: 0,
            parts: 1,
        };
        assert_eq!(element_text(&decl(&[Some(128)]), Some(&pts), 9), "pts[4].y");
    }

    #[test]
    fn subscripts_are_shown_as_written_with_the_extent() {
        let t = decl(&[Some(16), Some(17)]);
        // Not recombined: column 17 of row 3 stays `[3][17]`, a negative int is shown as one.
        assert_eq!(subscripts_text(&t, None, &[3, 17]), "t[3][17]");
        assert_eq!(subscripts_text(&t, None, &[u64::from(u32::MAX), 0]), "t[-1][0]");
        assert_eq!(extent_text(None, &t.dims), "16 × 17 elements");
        let pts = SourceArray {
            names: vec!["pts".into()],
            scalar: false,
            fields: vec!["x".into(), "y".into()],
            member_stride: 0,
            parts: 1,
        };
        assert_eq!(subscripts_text(&decl(&[Some(128)]), Some(&pts), &[129]), "pts[64].y");
        assert_eq!(extent_text(Some(&pts), &[Some(128)]), "64 elements");
        let count = SourceArray {
            names: vec!["count".into()],
            scalar: true,
            fields: vec![],
            member_stride: 0,
            parts: 1,
        };
        assert_eq!(extent_text(Some(&count), &[Some(1)]), "1 element");
    }
}
