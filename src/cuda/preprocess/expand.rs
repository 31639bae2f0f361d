//! Macro definitions and their expansion (C11 6.10.3): object- and function-like macros, `#`
//! stringizing, `##` pasting, variadic macros (`...`/`__VA_ARGS__`, GNU `args...` and
//! `, ## __VA_ARGS__`), arguments expanded before substitution, and rescanning with hide sets so a
//! macro never expands inside its own expansion.

use super::lex::{lex, Kind, Tok};
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::rc::Rc;

/// A macro definition.
#[derive(Debug)]
pub(crate) struct Macro {
    pub name: String,
    /// `None` for an object-like macro.
    pub params: Option<Vec<String>>,
    /// The last parameter takes the remaining arguments.
    pub variadic: bool,
    pub body: Vec<Tok>,
    /// `file:line:col` of the definition, for notes.
    pub defined: String,
    /// "macro", or "typedef" for a scalar typedef name resolved by substitution.
    pub what: &'static str,
}

/// Why an expansion failed.
#[derive(Debug)]
pub(crate) struct ExpandError(pub String);

/// The macro table plus what builtin macros need.
#[derive(Default)]
pub(crate) struct Macros {
    pub defs: HashMap<String, Rc<Macro>>,
    /// Value of `__LINE__` and `__FILE__` at the current invocation.
    pub line: usize,
    pub file: String,
    /// Tokens produced so far; a runaway expansion stops at [`STEP_LIMIT`].
    steps: usize,
}

use crate::limits::MAX_MACRO_EXPANSION_TOKENS as STEP_LIMIT;

/// The result of expanding one macro name at the front of the input.
pub(crate) struct Expansion {
    pub toks: Vec<Tok>,
    /// The name of the macro expanded.
    pub name: String,
    /// End offset of the last source token consumed as an argument (the closing parenthesis).
    pub consumed_src_end: Option<usize>,
}

/// Parses `NAME[(params)] body` (the tokens after `#define`). Errors say what is malformed.
pub(crate) fn parse_define(toks: &[Tok], defined: String) -> Result<Macro, String> {
    let name = match toks.first() {
        Some(t) if t.kind == Kind::Ident => t.text.to_string(),
        Some(t) => return Err(format!("macro names must be identifiers, not `{}`", t.text)),
        None => return Err("`#define` without a macro name".into()),
    };
    if name == "defined" {
        return Err("`defined` cannot be used as a macro name".into());
    }
    let mut rest = &toks[1..];
    let mut params = None;
    let mut variadic = false;
    if rest.first().is_some_and(|t| t.is("(") && !t.ws) {
        let mut ps = Vec::new();
        let mut i = 1;
        let mut expect_param = true;
        loop {
            let Some(t) = rest.get(i) else {
                return Err(format!("missing `)` in the parameter list of macro `{name}`"));
            };
            i += 1;
            if t.is(")") && (!expect_param || ps.is_empty()) {
                break;
            }
            if variadic {
                return Err(format!("`...` must be the last parameter of macro `{name}`"));
            }
            if expect_param && t.is("...") {
                ps.push("__VA_ARGS__".to_string());
                variadic = true;
                expect_param = false;
            } else if expect_param && t.kind == Kind::Ident {
                if ps.contains(&t.text.to_string()) {
                    return Err(format!("duplicate parameter `{}` of macro `{name}`", t.text));
                }
                ps.push(t.text.to_string());
                expect_param = false;
                if rest.get(i).is_some_and(|n| n.is("...")) {
                    variadic = true;
                    i += 1;
                }
            } else if !expect_param && t.is(",") {
                expect_param = true;
            } else {
                return Err(format!("unexpected `{}` in the parameter list of macro `{name}`", t.text));
            }
        }
        rest = &rest[i..];
        params = Some(ps);
    }
    let body: Vec<Tok> = rest.to_vec();
    if body.first().is_some_and(|t| t.is("##")) || body.last().is_some_and(|t| t.is("##")) {
        return Err(format!("`##` cannot be at either end of the body of macro `{name}`"));
    }
    if let Some(ps) = &params {
        for (i, t) in body.iter().enumerate() {
            let next_is_param = body.get(i + 1).is_some_and(|n| ps.iter().any(|p| **p == *n.text));
            if t.is("#") && !next_is_param {
                return Err(format!("`#` in macro `{name}` must be followed by a parameter name"));
            }
        }
    }
    Ok(Macro { name, params, variadic, body, defined, what: "macro" })
}

fn union(a: &Rc<BTreeSet<String>>, b: &Rc<BTreeSet<String>>, name: &str) -> Rc<BTreeSet<String>> {
    let mut s: BTreeSet<String> = a.iter().chain(b.iter()).cloned().collect();
    s.insert(name.to_string());
    Rc::new(s)
}

impl Macros {
    /// Expands every macro of `toks` (no input follows them).
    pub fn expand_list(&mut self, toks: Vec<Tok>) -> Result<Vec<Tok>, ExpandError> {
        let mut input: VecDeque<Tok> = toks.into();
        let mut out = Vec::new();
        while let Some(t) = input.pop_front() {
            match self.try_expand(&t, &mut input)? {
                Some(e) => {
                    for x in e.toks.into_iter().rev() {
                        input.push_front(x);
                    }
                }
                None => out.push(t),
            }
        }
        Ok(out)
    }

    /// If `t` names a macro that may expand here (not hidden; a function-like macro only when
    /// `(` follows), consumes its arguments from `input` and returns the substituted tokens (to
    /// be rescanned by the caller, ahead of the rest of the input).
    pub fn try_expand(
        &mut self,
        t: &Tok,
        input: &mut VecDeque<Tok>,
    ) -> Result<Option<Expansion>, ExpandError> {
        if t.kind != Kind::Ident || t.hide.contains(&*t.text) {
            return Ok(None);
        }
        let name = t.text.to_string();
        let Some(m) = self.defs.get(&name).cloned() else {
            return Ok(self.builtin(t).map(|x| Expansion { toks: vec![x], name, consumed_src_end: None }));
        };
        let Some(params) = &m.params else {
            let hide = union(&t.hide, &Rc::default(), &name);
            let toks = self.substitute(&m, &[], &hide, t.ws)?;
            return Ok(Some(Expansion { toks, name, consumed_src_end: None }));
        };
        if !input.front().is_some_and(|n| n.is("(")) {
            return Ok(None);
        }
        let (args, close) = collect_args(&name, input)?;
        let args = match_arity(&m, params, args)?;
        let hide = union(&t.hide, &close.hide, &name);
        let toks = self.substitute(&m, &args, &hide, t.ws)?;
        Ok(Some(Expansion { toks, name, consumed_src_end: close.src.then_some(close.end) }))
    }

    fn builtin(&self, t: &Tok) -> Option<Tok> {
        match &*t.text {
            "__LINE__" => Some(Tok::made(Kind::Number, &self.line.to_string(), t.ws)),
            "__FILE__" => Some(Tok::made(Kind::Str, &format!("{:?}", self.file), t.ws)),
            _ => None,
        }
    }

    /// The body of `m` with the arguments substituted (C11 6.10.3.1–3), before rescanning.
    fn substitute(
        &mut self,
        m: &Macro,
        args: &[Vec<Tok>],
        hide: &Rc<BTreeSet<String>>,
        ws: bool,
    ) -> Result<Vec<Tok>, ExpandError> {
        let params: &[String] = m.params.as_deref().unwrap_or(&[]);
        let param =
            |t: &Tok| (t.kind == Kind::Ident).then(|| params.iter().position(|p| **p == *t.text)).flatten();
        let mut expanded: HashMap<usize, Vec<Tok>> = HashMap::new();
        let mut out: Vec<Tok> = Vec::new();
        let body = &m.body;
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            if m.params.is_some() && t.is("#") {
                if let Some(p) = body.get(i + 1).and_then(param) {
                    let mut s = Tok::made(Kind::Str, &stringize(&args[p]), t.ws);
                    s.hide = Rc::default();
                    out.push(s);
                    i += 2;
                    continue;
                }
            }
            if t.is("##") && i + 1 < body.len() {
                let next = &body[i + 1];
                let rhs: Vec<Tok> = match param(next) {
                    Some(p) => args[p].clone(),
                    None => vec![next.clone()],
                };
                let va_comma = m.variadic && param(next) == Some(params.len() - 1);
                if va_comma && rhs.is_empty() && out.last().is_some_and(|l| l.is(",")) {
                    // GNU `, ## __VA_ARGS__`: an empty variadic argument swallows the comma.
                    out.pop();
                } else {
                    self.paste(&mut out, rhs, &m.name)?;
                }
                i += 2;
                continue;
            }
            if let Some(p) = param(t) {
                let pasted = body.get(i + 1).is_some_and(|n| n.is("##"));
                let mut toks = if pasted {
                    args[p].clone()
                } else {
                    match expanded.get(&p) {
                        Some(e) => e.clone(),
                        None => {
                            let e = self.expand_list(args[p].clone())?;
                            expanded.insert(p, e.clone());
                            e
                        }
                    }
                };
                if toks.is_empty() {
                    toks.push(Tok::made(Kind::Placemarker, "", t.ws));
                }
                toks[0].ws = t.ws;
                out.extend(toks);
                i += 1;
                continue;
            }
            out.push(t.clone());
            i += 1;
        }
        out.retain(|t| t.kind != Kind::Placemarker);
        self.steps += out.len();
        if self.steps > STEP_LIMIT {
            return Err(ExpandError(format!("the expansion of macro `{}` is too large", m.name)));
        }
        for (k, t) in out.iter_mut().enumerate() {
            t.hide = if t.hide.is_empty() { hide.clone() } else { union(&t.hide, hide, &m.name) };
            t.src = false;
            if k == 0 {
                t.ws = ws;
            }
        }
        Ok(out)
    }

    /// `lhs ## rhs`: the last token of `out` glued to the first of `rhs`.
    fn paste(&mut self, out: &mut Vec<Tok>, rhs: Vec<Tok>, name: &str) -> Result<(), ExpandError> {
        let mut rhs = rhs.into_iter();
        let Some(first) = rhs.next() else { return Ok(()) };
        match out.pop() {
            None => out.push(first),
            Some(l) if l.kind == Kind::Placemarker => out.push(first),
            Some(l) if first.kind == Kind::Placemarker => out.push(l),
            Some(l) => {
                let text = format!("{}{}", l.text, first.text);
                let toks = lex(&text).map_err(|d| ExpandError(d.message))?;
                if toks.len() != 1 {
                    return Err(ExpandError(format!(
                        "pasting `{}` and `{}` in macro `{name}` does not give a valid token",
                        l.text, first.text
                    )));
                }
                let mut t = toks.into_iter().next().unwrap_or(l.clone());
                t.ws = l.ws;
                t.src = false;
                out.push(t);
            }
        }
        out.extend(rhs);
        Ok(())
    }
}

/// The arguments of a function-like macro invocation, `input` starting at its `(`; returns them
/// with the closing parenthesis.
fn collect_args(name: &str, input: &mut VecDeque<Tok>) -> Result<(Vec<Vec<Tok>>, Tok), ExpandError> {
    input.pop_front();
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    while let Some(t) = input.pop_front() {
        if t.is(")") && depth == 0 {
            return Ok((args, t));
        }
        if t.is("(") {
            depth += 1;
        } else if t.is(")") {
            depth -= 1;
        } else if t.is(",") && depth == 0 {
            args.push(Vec::new());
            continue;
        }
        if let Some(a) = args.last_mut() {
            a.push(t);
        }
    }
    Err(ExpandError(format!("unterminated argument list invoking macro `{name}`")))
}

/// Checks the argument count and folds the variadic tail into one argument.
fn match_arity(m: &Macro, params: &[String], mut args: Vec<Vec<Tok>>) -> Result<Vec<Vec<Tok>>, ExpandError> {
    if params.is_empty() && args.len() == 1 && args[0].is_empty() {
        return Ok(Vec::new());
    }
    let n = params.len();
    if m.variadic && args.len() + 1 >= n {
        if args.len() + 1 == n {
            args.push(Vec::new());
        }
        let tail = args.split_off(n - 1);
        let mut joined = Vec::new();
        for (k, a) in tail.into_iter().enumerate() {
            if k > 0 {
                joined.push(Tok::made(Kind::Punct, ",", false));
            }
            joined.extend(a);
        }
        args.push(joined);
        return Ok(args);
    }
    if args.len() != n {
        let takes = if m.variadic { format!("at least {}", n - 1) } else { n.to_string() };
        return Err(ExpandError(format!(
            "macro `{}` takes {takes} argument{}, but {} {} given",
            m.name,
            if n == 1 && !m.variadic { "" } else { "s" },
            args.len(),
            if args.len() == 1 { "was" } else { "were" }
        )));
    }
    Ok(args)
}

/// `#x`: the argument's spelling as a string literal.
fn stringize(arg: &[Tok]) -> String {
    let mut s = String::from("\"");
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.ws {
            s.push(' ');
        }
        if matches!(t.kind, Kind::Str | Kind::Char) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    s
}
