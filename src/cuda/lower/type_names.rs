//! Type names declared inside a function body (`typedef typename AccType<T>::type acc_t;`).
//!
//! clang desugars a variable's type only where the sugar is on top (`acc_t sum` reads as
//! `float`); an array or a pointer of such a name (`acc_t partial[256]`, `acc_t *p`) keeps the
//! name, and the file's type names (`Model::typedefs`) do not hold it: the target differs per
//! template instance. The instance's own body holds the declaration with its desugared target.

use super::{Lx, Node, NodeKind};

impl Lx<'_> {
    /// `ty` with the type names declared in the body being lowered replaced by what they stand
    /// for; `None` when it names none of them. A name declared twice in one body with
    /// different targets (two blocks) is left alone: which one a use sees is a matter of
    /// scopes this lookup does not model, and the caller refuses what it cannot classify.
    pub(super) fn resolve_local_type_names(&self, ty: &str) -> Option<String> {
        let body = self.bodies.last()?;
        let mut out = String::new();
        let mut word = String::new();
        let mut changed = false;
        for c in ty.chars().chain(std::iter::once('\0')) {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            match local_type_name(body, &word) {
                Some(target) => {
                    out.push_str(&target);
                    changed = true;
                }
                None => out.push_str(&word),
            }
            word.clear();
            if c != '\0' {
                out.push(c);
            }
        }
        changed.then_some(out)
    }
}

/// What the type name `name` declared in `body` stands for, when every declaration of it there
/// agrees.
fn local_type_name(body: &Node, name: &str) -> Option<String> {
    if name.is_empty() {
        return None;
    }
    let mut found: Option<String> = None;
    for n in body.walk() {
        if let NodeKind::TypeName { name: declared, target } = &n.kind {
            if declared == name {
                match &found {
                    Some(t) if t != target => return None,
                    _ => found = Some(target.clone()),
                }
            }
        }
    }
    found
}
