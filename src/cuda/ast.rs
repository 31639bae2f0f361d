//! The subset of clang's `-ast-dump=json` output that the model reads, as serde structs.
//!
//! Two facts of clang's JSON shape this module:
//! - A source location omits `file` (and `line`) when it equals the previous location *printed*,
//!   in document order, anywhere in the dump. Locations are therefore resolved while
//!   deserializing (serde_json visits keys in document order), against a per-parse tracker that
//!   replays clang's rule; every [`Bare`] here carries its file and line explicitly.
//! - Declarations of the stand-in headers are most of the dump. A top-level declaration whose
//!   location is not in a user file is skipped without building nodes: its subtree is only
//!   scanned for the `file`/`line` keys that move the tracker.
//!
//! serde's derive cannot thread state through `Deserialize`, so the tracker is thread-local,
//! installed by [`parse_dump`] for the duration of one `from_slice` and removed afterwards.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// A location in one file, with clang's elided fields filled in. Offsets are bytes from the
/// start of `file`; `line` and `col` are 1-based as clang prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bare {
    /// The file as clang names it (the path given on the command line, or include dir + name).
    pub file: Arc<str>,
    /// Byte offset into `file`.
    pub offset: u64,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (bytes).
    pub col: u32,
    /// Length of the token starting here, in bytes.
    pub tok_len: u32,
}

/// A location: either plain, or a macro expansion with the place the token was spelled
/// (often a stand-in header) and the place the macro was used (the user's text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loc {
    /// Where the token was written.
    pub spelling: Option<Bare>,
    /// Where the token appears after macro expansion; equal to `spelling` outside macros.
    pub expansion: Option<Bare>,
    /// The token came from a macro argument: `spelling` is where the user wrote it, while
    /// `expansion` is the macro's name.
    pub is_macro_arg: bool,
}

impl Loc {
    /// The place in a file the user can see the token: the argument text for a token of a
    /// macro argument, the macro's use for a token of a macro body.
    pub fn file_loc(&self) -> Option<&Bare> {
        if self.is_macro_arg {
            self.spelling.as_ref()
        } else {
            self.expansion.as_ref()
        }
    }
}

/// A begin/end pair; `end` is the *start* of the last token (add its `tok_len` for the end).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Range {
    /// The first token.
    pub begin: Loc,
    /// The last token.
    pub end: Loc,
}

/// `{"qualType": …, "desugaredQualType": …}`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
pub struct QualType {
    /// The type as written (after template substitution).
    #[serde(rename = "qualType", default)]
    pub qual: String,
    /// The canonical spelling, present only when it differs.
    #[serde(rename = "desugaredQualType", default)]
    pub desugared: Option<String>,
}

/// A reference to a declaration elsewhere in the dump (`referencedDecl`, `decl`).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
pub struct DeclRef {
    /// clang's node id (an address); joins a reference to the declaration's own node.
    #[serde(default)]
    pub id: String,
    /// The declaration's kind (`FunctionDecl`, `ParmVarDecl`, …).
    #[serde(default)]
    pub kind: String,
    /// Its name, when it has one.
    #[serde(default)]
    pub name: Option<String>,
    /// Its type.
    #[serde(rename = "type", default)]
    pub ty: Option<QualType>,
}

/// One AST node of any kind: the fields used by some kind are `None`/empty for the others.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    /// clang's node id.
    #[serde(default)]
    pub id: String,
    /// The node kind (`FunctionDecl`, `BinaryOperator`, `TemplateArgument` has none).
    #[serde(default)]
    pub kind: String,
    /// Declarations: the location of the name.
    #[serde(default, deserialize_with = "decl_loc")]
    pub loc: Option<Loc>,
    /// The source range.
    #[serde(default)]
    pub range: Option<Range>,
    /// Declarations and members: the name.
    #[serde(default)]
    pub name: Option<String>,
    /// Expressions and typed declarations: the type.
    #[serde(rename = "type", default)]
    pub ty: Option<QualType>,
    /// Literals, `ConstantExpr`, `TemplateArgument`: the value (a string for integers, which
    /// may exceed 64 bits; a number or bool otherwise).
    #[serde(default)]
    pub value: Option<serde_json::Value>,
    /// Operators: `+`, `<<=`, `++`, …
    #[serde(default)]
    pub opcode: Option<String>,
    /// Unary operators: whether it is `x++` rather than `++x`.
    #[serde(default)]
    pub is_postfix: bool,
    /// Casts: `LValueToRValue`, `IntegralCast`, …
    #[serde(default)]
    pub cast_kind: Option<String>,
    /// `DeclRefExpr`: the declaration referred to.
    #[serde(default)]
    pub referenced_decl: Option<DeclRef>,
    /// `UnaryExprOrTypeTraitExpr` of a type (`sizeof(float)`): the type.
    #[serde(default)]
    pub arg_type: Option<QualType>,
    /// `MemberExpr`: the member's declaration id.
    #[serde(default)]
    pub referenced_member_decl: Option<String>,
    /// `MemberExpr`: `->` rather than `.`.
    #[serde(default)]
    pub is_arrow: bool,
    /// `VarDecl`: `static`, `extern`.
    #[serde(default)]
    pub storage_class: Option<String>,
    /// `VarDecl`: declared `constexpr`.
    #[serde(default)]
    pub constexpr: bool,
    /// `VarDecl`: `c` (copy), `call`, `list` when initialized.
    #[serde(default)]
    pub init: Option<String>,
    /// Declarations clang made up (implicit members, builtins).
    #[serde(default)]
    pub is_implicit: bool,
    /// `IfStmt`: an else branch exists.
    #[serde(default)]
    pub has_else: bool,
    /// `IfStmt`: `if constexpr`.
    #[serde(default)]
    pub is_constexpr: bool,
    /// `FunctionDecl` instances: `implicit_instantiation`, `explicit_instantiation_definition`…
    #[serde(default)]
    pub template_specialization_kind: Option<String>,
    /// `FunctionDecl`: declared `inline`.
    #[serde(default)]
    pub inline: bool,
    /// `TagDecl`s: `struct`, `class`.
    #[serde(default)]
    pub tag_used: Option<String>,
    /// A redeclaration (a function defined after its prototype): the declaration before it.
    #[serde(default)]
    pub previous_decl: Option<String>,
    /// `CXXRecordDecl`: this declaration is the definition.
    #[serde(default)]
    pub complete_definition: bool,
    /// `CXXRecordDecl`: its base classes, in declaration order.
    #[serde(default)]
    pub bases: Vec<BaseSpec>,
    /// `LabelStmt`: the id of the label's declaration (what a `goto` names).
    #[serde(default)]
    pub decl_id: Option<String>,
    /// `GotoStmt`: the id of the declaration of the label it jumps to.
    #[serde(default)]
    pub target_label_decl_id: Option<String>,
    /// Children in document order.
    #[serde(default, deserialize_with = "inner_nodes")]
    pub inner: Vec<Node>,
    /// `InitListExpr` with elements not written (`float r[4] = {1.0f}`): clang prints the
    /// filler (the value of an element not written) first here, then the written elements,
    /// in place of `inner`. Read like `inner`, so their locations move the tracker too.
    #[serde(rename = "array_filler", default, deserialize_with = "inner_nodes")]
    pub array_filler: Vec<Node>,
}

/// A base class of a `CXXRecordDecl`.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BaseSpec {
    /// The base's type.
    #[serde(rename = "type", default)]
    pub ty: Option<QualType>,
    /// `virtual` inheritance.
    #[serde(default)]
    pub is_virtual: bool,
}

/// Says whether a file's declarations are dropped (stand-in and stub headers).
pub type Foreign = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// The per-parse state that replays clang's location elision.
#[derive(Default)]
struct Tracker {
    last_file: Option<Arc<str>>,
    last_line: u32,
    /// The expansion file of the most recent declaration `loc`: decides, at its `inner`,
    /// whether a top-level declaration is kept.
    last_decl_file: Option<Arc<str>>,
    /// How many `inner` arrays enclose the one being read.
    depth: usize,
    /// A file whose top-level declarations are dropped (stand-in and stub headers).
    is_foreign: Option<Foreign>,
}

thread_local! {
    static TRACKER: RefCell<Option<Tracker>> = const { RefCell::new(None) };
}

fn with_tracker<R>(f: impl FnOnce(&mut Tracker) -> R) -> Option<R> {
    TRACKER.with(|t| t.borrow_mut().as_mut().map(f))
}

/// The fields of one printed location, before elided ones are filled in.
#[derive(Deserialize)]
struct RawBare {
    #[serde(default)]
    offset: Option<u64>,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    line: Option<u32>,
    #[serde(default)]
    col: Option<u32>,
    #[serde(rename = "tokLen", default)]
    tok_len: Option<u32>,
    /// clang 14 prints this inside `expansionLoc`.
    #[serde(rename = "isMacroArgExpansion", default)]
    is_macro_arg: bool,
}

#[derive(Deserialize)]
struct RawLoc {
    #[serde(default)]
    offset: Option<u64>,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    line: Option<u32>,
    #[serde(default)]
    col: Option<u32>,
    #[serde(rename = "tokLen", default)]
    tok_len: Option<u32>,
    #[serde(rename = "spellingLoc", default)]
    spelling: Option<RawBare>,
    #[serde(rename = "expansionLoc", default)]
    expansion: Option<RawBare>,
    #[serde(rename = "isMacroArgExpansion", default)]
    is_macro_arg: bool,
}

/// Applies clang's rule to one printed location: `file` and `line` update the tracker; absent
/// ones are taken from it. An empty object (an invalid location) yields `None` and, as in
/// clang, leaves the tracker alone.
fn resolve(raw: RawBare) -> Option<Bare> {
    let offset = raw.offset?;
    with_tracker(|t| {
        if let Some(f) = raw.file {
            t.last_file = Some(Arc::from(f));
        }
        if let Some(l) = raw.line {
            t.last_line = l;
        }
        Some(Bare {
            file: t.last_file.clone()?,
            offset,
            line: t.last_line,
            col: raw.col.unwrap_or(0),
            tok_len: raw.tok_len.unwrap_or(0),
        })
    })
    .flatten()
}

impl<'de> Deserialize<'de> for Loc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawLoc::deserialize(d)?;
        // clang prints a macro location as spelling then expansion, each elided against the
        // one before: resolve in that order.
        if raw.spelling.is_some() || raw.expansion.is_some() {
            let is_macro_arg = raw.is_macro_arg || raw.expansion.as_ref().is_some_and(|e| e.is_macro_arg);
            let spelling = raw.spelling.and_then(resolve);
            let expansion = raw.expansion.and_then(resolve);
            return Ok(Loc { spelling, expansion, is_macro_arg });
        }
        let plain = resolve(RawBare {
            offset: raw.offset,
            file: raw.file,
            line: raw.line,
            col: raw.col,
            tok_len: raw.tok_len,
            is_macro_arg: false,
        });
        Ok(Loc { spelling: plain.clone(), expansion: plain, is_macro_arg: false })
    }
}

impl<'de> Deserialize<'de> for Range {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct RawRange {
            #[serde(default)]
            begin: Option<Loc>,
            #[serde(default)]
            end: Option<Loc>,
        }
        let r = RawRange::deserialize(d)?;
        Ok(Range { begin: r.begin.unwrap_or_default(), end: r.end.unwrap_or_default() })
    }
}

fn decl_loc<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Loc>, D::Error> {
    let loc = Loc::deserialize(d)?;
    let file = loc.expansion.as_ref().map(|b| b.file.clone());
    with_tracker(|t| t.last_decl_file = file);
    Ok(Some(loc))
}

fn inner_nodes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Node>, D::Error> {
    let keep = with_tracker(|t| {
        if t.depth != 1 {
            return true;
        }
        match (&t.last_decl_file, &t.is_foreign) {
            (None, _) => false,
            (Some(f), Some(foreign)) => !foreign(f),
            (Some(_), None) => true,
        }
    })
    .unwrap_or(true);
    if !keep {
        d.deserialize_any(Skip)?;
        return Ok(Vec::new());
    }
    with_tracker(|t| t.depth += 1);
    let nodes = Vec::<Node>::deserialize(d);
    with_tracker(|t| t.depth -= 1);
    nodes
}

/// Walks a subtree that is not kept, moving the tracker on every `file`/`line` key of a
/// location (an `includedFrom` object names a file without moving it).
#[derive(Clone, Copy)]
struct Skip;

impl<'de> DeserializeSeed<'de> for Skip {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skip {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Skip)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<KeyName>()? {
            match key {
                KeyName::File => {
                    let f: String = map.next_value()?;
                    with_tracker(|t| t.last_file = Some(Arc::from(f)));
                }
                KeyName::Line => {
                    let l: u32 = map.next_value()?;
                    with_tracker(|t| t.last_line = l);
                }
                KeyName::IncludedFrom => {
                    map.next_value::<IgnoredAny>()?;
                }
                KeyName::Other => map.next_value_seed(Skip)?,
            }
        }
        Ok(())
    }
}

/// The keys [`Skip`] distinguishes, read without allocating for the others.
enum KeyName {
    File,
    Line,
    IncludedFrom,
    Other,
}

impl<'de> Deserialize<'de> for KeyName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = KeyName;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<KeyName, E> {
                Ok(match s {
                    "file" => KeyName::File,
                    "line" => KeyName::Line,
                    "includedFrom" => KeyName::IncludedFrom,
                    _ => KeyName::Other,
                })
            }
        }
        d.deserialize_str(V)
    }
}

/// Uninstalls the tracker even when deserialization fails.
struct TrackerGuard;

impl Drop for TrackerGuard {
    fn drop(&mut self) {
        TRACKER.with(|t| *t.borrow_mut() = None);
    }
}

/// A parsed dump: the translation unit with the top-level declarations of foreign files
/// dropped, and how many were dropped.
#[derive(Debug)]
pub struct Dump {
    /// The `TranslationUnitDecl`; its `inner` holds the kept top-level declarations in order.
    pub unit: Node,
    /// Top-level declarations skipped as foreign (or without a location).
    pub skipped: usize,
}

/// Parses clang's JSON dump. `is_foreign(file)` says which files' top-level declarations to
/// skip; declarations without a location (clang's builtins) are always skipped. Every kept
/// location has its file and line filled in.
pub fn parse_dump(json: &[u8], is_foreign: Foreign) -> Result<Dump, String> {
    TRACKER.with(|t| {
        *t.borrow_mut() = Some(Tracker { is_foreign: Some(is_foreign.clone()), ..Tracker::default() })
    });
    let _guard = TrackerGuard;
    let mut unit: Node = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    if unit.kind != "TranslationUnitDecl" {
        return Err(format!("expected a TranslationUnitDecl, found `{}`", unit.kind));
    }
    // Foreign declarations with children come back childless; those without (prototypes,
    // typedefs) were read whole. Both are dropped here.
    let before = unit.inner.len();
    unit.inner.retain(|n| match n.loc.as_ref().and_then(|l| l.expansion.as_ref()) {
        Some(b) => !is_foreign(&b.file),
        None => false,
    });
    let skipped = before - unit.inner.len();
    Ok(Dump { unit, skipped })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never_foreign() -> Foreign {
        Arc::new(|_| false)
    }

    #[test]
    fn elided_file_and_line_come_from_the_previous_printed_location() {
        // Shaped as clang 14 prints it: the second declaration omits `file` and `line`; the
        // macro location's expansion part omits the file its spelling part changed.
        let json = br#"{"id":"0x1","kind":"TranslationUnitDecl","inner":[
          {"id":"0x2","kind":"FunctionDecl","loc":{"offset":10,"file":"a.cu","line":3,"col":5,"tokLen":1},
           "range":{"begin":{"offset":8,"col":3,"tokLen":4},"end":{"offset":20,"line":4,"col":1,"tokLen":1}},"name":"f"},
          {"id":"0x3","kind":"FunctionDecl","loc":{"offset":30,"col":6,"tokLen":1},
           "range":{"begin":{"spellingLoc":{"offset":7,"file":"h.h","line":1,"col":8,"tokLen":3},
                             "expansionLoc":{"offset":25,"file":"a.cu","line":5,"col":1,"tokLen":3}},
                    "end":{"offset":40,"col":16,"tokLen":1}},"name":"g"}]}"#;
        let dump = parse_dump(json, never_foreign()).unwrap();
        let g = &dump.unit.inner[1];
        let loc = g.loc.as_ref().unwrap().expansion.as_ref().unwrap();
        assert_eq!((&*loc.file, loc.line, loc.col), ("a.cu", 4, 6));
        let r = g.range.as_ref().unwrap();
        assert_eq!(&*r.begin.spelling.as_ref().unwrap().file, "h.h");
        assert_eq!(r.begin.expansion.as_ref().unwrap().line, 5);
        let end = r.end.expansion.as_ref().unwrap();
        assert_eq!((&*end.file, end.line, end.offset), ("a.cu", 5, 40));
    }

    #[test]
    fn foreign_declarations_are_skipped_but_still_move_the_tracker() {
        let json = br#"{"id":"0x1","kind":"TranslationUnitDecl","inner":[
          {"id":"0x2","kind":"FunctionDecl","loc":{"offset":1,"file":"a.cu","line":1,"col":1,"tokLen":1},"name":"u"},
          {"id":"0x3","kind":"FunctionDecl","loc":{"offset":1,"file":"/inc/x.h","line":9,"col":1,"tokLen":1,
             "includedFrom":{"file":"a.cu"}},"name":"h",
           "inner":[{"id":"0x4","kind":"ParmVarDecl","loc":{"offset":5,"file":"a.cu","line":2,"col":2,"tokLen":1}}]},
          {"id":"0x5","kind":"FunctionDecl","loc":{"offset":9,"col":3,"tokLen":1},"name":"v","inner":[]}]}"#;
        let dump = parse_dump(json, Arc::new(|f: &str| f.starts_with("/inc/"))).unwrap();
        assert_eq!(dump.skipped, 1);
        assert_eq!(dump.unit.inner.len(), 2);
        // `v` omits its file: it is the one the skipped subtree's parameter switched back to.
        let v = &dump.unit.inner[1];
        let loc = v.loc.as_ref().unwrap().expansion.as_ref().unwrap();
        assert_eq!((&*loc.file, loc.line), ("a.cu", 2));
    }

    #[test]
    fn bad_json_is_an_error_not_a_panic() {
        assert!(parse_dump(b"{\"kind\": 3", never_foreign()).is_err());
        assert!(parse_dump(b"[]", never_foreign()).is_err());
        assert!(parse_dump(br#"{"kind":"FunctionDecl"}"#, never_foreign()).is_err());
    }
}
