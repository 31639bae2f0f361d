//! `#if` expressions: integer constant expressions over macro-expanded tokens, evaluated in 64-bit
//! signed arithmetic (`defined` is resolved and identifiers left after expansion are 0 before
//! this runs, as the C standard says).

use super::lex::{Kind, Tok};

/// Evaluates the tokens of an `#if`/`#elif` line. Errors: a syntax error, a division by zero, an
/// overflow or a literal this evaluator cannot read (the message says which).
pub(crate) fn eval(toks: &[Tok]) -> Result<i64, String> {
    let mut p = P { toks, i: 0, depth: 0 };
    let v = p.ternary()?;
    match p.toks.get(p.i) {
        None => Ok(v),
        Some(t) => Err(format!("unexpected `{}` in the condition", t.text)),
    }
}

pub(crate) use crate::limits::MAX_PP_CONDITION_DEPTH as MAX_DEPTH;

/// The message of the error for a condition nested deeper than [`MAX_DEPTH`].
pub(crate) const TOO_DEEP: &str = "nesting too deep";

struct P<'a> {
    toks: &'a [Tok],
    i: usize,
    depth: usize,
}

/// Binary operators by precedence level, loosest first.
const LEVELS: [&[&str]; 9] = [
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", "<=", ">", ">="],
    &["<<", ">>"],
    &["+", "-"],
];

impl P<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }
    fn eat(&mut self, p: &str) -> bool {
        if self.peek().is_some_and(|t| t.is(p)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Runs `f` one nesting level deeper, failing beyond [`MAX_DEPTH`].
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Result<i64, String>) -> Result<i64, String> {
        if self.depth >= MAX_DEPTH {
            return Err(format!("{TOO_DEEP} (more than {MAX_DEPTH} nested parentheses or operators)"));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn ternary(&mut self) -> Result<i64, String> {
        self.nested(Self::ternary_here)
    }

    fn ternary_here(&mut self) -> Result<i64, String> {
        let c = self.binary(0)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let a = self.ternary()?;
        if !self.eat(":") {
            return Err("expected `:` in a `?:` expression".into());
        }
        let b = self.ternary()?;
        Ok(if c != 0 { a } else { b })
    }

    fn binary(&mut self, level: usize) -> Result<i64, String> {
        if level == LEVELS.len() {
            return self.multiplicative();
        }
        let mut a = self.binary(level + 1)?;
        while let Some(op) = self.peek().filter(|t| t.kind == Kind::Punct).map(|t| t.text.clone()) {
            if !LEVELS[level].contains(&&*op) {
                break;
            }
            self.i += 1;
            let b = self.binary(level + 1)?;
            a = apply(&op, a, b)?;
        }
        Ok(a)
    }

    fn multiplicative(&mut self) -> Result<i64, String> {
        let mut a = self.unary()?;
        while let Some(op) =
            self.peek().filter(|t| t.is("*") || t.is("/") || t.is("%")).map(|t| t.text.clone())
        {
            self.i += 1;
            let b = self.unary()?;
            a = apply(&op, a, b)?;
        }
        Ok(a)
    }

    fn unary(&mut self) -> Result<i64, String> {
        self.nested(Self::unary_here)
    }

    fn unary_here(&mut self) -> Result<i64, String> {
        if self.eat("-") {
            return self
                .unary()?
                .checked_neg()
                .ok_or_else(|| "integer overflow in the condition".to_string());
        }
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("!") {
            return Ok((self.unary()? == 0) as i64);
        }
        if self.eat("~") {
            return Ok(!self.unary()?);
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<i64, String> {
        let Some(t) = self.peek().cloned() else {
            return Err("the condition ends too early".into());
        };
        self.i += 1;
        match t.kind {
            _ if t.is("(") => {
                let v = self.ternary()?;
                if !self.eat(")") {
                    return Err("expected `)`".into());
                }
                Ok(v)
            }
            Kind::Number => number(&t.text),
            Kind::Char => crate::cuda::consts::parse_char(&t.text)
                .map(i64::from)
                .ok_or_else(|| format!("cannot read the character literal {}", t.text)),
            _ => Err(format!("unexpected `{}` in the condition", t.text)),
        }
    }
}

fn apply(op: &str, a: i64, b: i64) -> Result<i64, String> {
    use crate::cuda::consts::{binary, ConstFault};
    binary(op, a, b).map_err(|fault| match fault {
        ConstFault::Overflow => "integer overflow in the condition".to_string(),
        ConstFault::DivisionByZero => "division by zero in the condition".to_string(),
        ConstFault::ShiftCount => "shift count out of range".to_string(),
        ConstFault::Operator => format!("operator `{op}` in the condition"),
    })
}

/// An integer literal (decimal, hex, octal, binary; `u`/`l` suffixes; `'` separators).
fn number(text: &str) -> Result<i64, String> {
    let v = crate::cuda::consts::parse_integer(text)
        .ok_or_else(|| format!("`{text}` is not an integer literal"))?;
    // Unsigned values above i64::MAX wrap, as `intmax_t`/`uintmax_t` mixing would in C.
    Ok(v as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(s: &str) -> Result<i64, String> {
        let toks = super::super::lex::lex(s).expect("lexes");
        eval(&toks)
    }

    #[test]
    fn precedence_and_operators() {
        assert_eq!(ev("1 + 2 * 3"), Ok(7));
        assert_eq!(ev("(1 + 2) * 3 == 9 && !0"), Ok(1));
        assert_eq!(ev("0x10 >> 2 | 1"), Ok(5));
        assert_eq!(ev("1 ? 2 : 3"), Ok(2));
        assert_eq!(ev("-1 < 0"), Ok(1));
        assert_eq!(ev("256u % 32 == 0"), Ok(1));
        assert_eq!(ev("'a' == 97"), Ok(1));
    }

    #[test]
    fn errors_say_why() {
        assert!(ev("1 / 0").unwrap_err().contains("division by zero"));
        assert!(ev("1 +").unwrap_err().contains("ends too early"));
        assert!(ev("(1").unwrap_err().contains("expected `)`"));
        assert!(ev("1.5").unwrap_err().contains("not an integer"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_an_overflow() {
        let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(ev(&deep).unwrap_err().starts_with(TOO_DEEP));
        let signs = format!("{}1", "!".repeat(10_000));
        assert!(ev(&signs).unwrap_err().starts_with(TOO_DEEP));
        let shallow = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert_eq!(ev(&shallow), Ok(1));
    }
}
