//! The resolved model of a CUDA file, built from clang's AST: its functions (kernels, device
//! and host functions, template instances), the launches in their bodies, and the statement
//! and expression trees of bodies, each node typed and located. Pure data: nothing here refers
//! back to serde or to clang's JSON.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::ast::{self, Bare};
use super::ClangDiagnostic;

/// A position in a file: byte offset and clang's 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    /// Byte offset from the start of the file.
    pub offset: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub col: u32,
}

/// A source range in one file as the user wrote it: a node produced by a macro body gets the
/// range of the macro's use, a node written as a macro argument its own text. Invariant: `start.offset <= end`,
/// and `end` is exclusive (past the last byte of the last token).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SrcRange {
    /// The file, named as clang names it (the path given, or include directory + name).
    pub file: Arc<str>,
    /// The first byte.
    pub start: Pos,
    /// One past the last byte.
    pub end: usize,
    /// The position of the last token's first byte (for line/column reports of the end).
    pub last_token: Pos,
}

impl SrcRange {
    /// Whether `(line, col)` lies between the first and the last token, inclusive.
    pub fn contains_line_col(&self, line: u32, col: u32) -> bool {
        (self.start.line, self.start.col) <= (line, col)
            && (line, col) <= (self.last_token.line, self.last_token.col)
    }
}

/// A piece of the user's text with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SrcText {
    /// The exact source bytes of the range.
    pub text: String,
    /// Where it is.
    pub range: SrcRange,
}

/// Where a function runs, from its CUDA attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecSpace {
    /// `__global__`: a kernel.
    Global,
    /// `__device__` only.
    Device,
    /// `__host__ __device__`.
    HostDevice,
    /// No attribute or `__host__`.
    Host,
}

/// One function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// clang's id of the declaration (what a `DeclRef` to it names).
    pub id: String,
    /// Its name (empty for an unnamed parameter).
    pub name: String,
    /// clang's type string (`const float *__restrict`, `T *`, `float *` in an instance).
    pub ty: String,
    /// The desugared type when it differs (`unsigned int` for a `uint32_t` parameter).
    pub desugared: Option<String>,
    /// Its default argument (what a call that leaves it out passes).
    pub default: Option<Node>,
}

/// One template argument of an instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateArg {
    /// A non-type argument's value as clang prints it (`128`, `true`).
    Value(String),
    /// A type argument's spelling (`float`, `__half`).
    Type(String),
    /// Anything else (template templates, packs), by clang's printed JSON.
    Other(String),
}

/// A function of the user's files (definitions and prototypes alike).
#[derive(Clone, Debug)]
pub struct Function {
    /// clang's id of the declaration; launches refer to it in [`Launch::callee_id`].
    pub id: String,
    /// The id of the declaration this one redeclares (its prototype), if any.
    pub previous: Option<String>,
    /// The unqualified name.
    pub name: String,
    /// Enclosing namespaces and classes joined with `::` (empty at file scope).
    pub scope: String,
    /// Where it runs.
    pub space: ExecSpace,
    /// The function type as clang prints it (`void (float *, int)`).
    pub signature: String,
    /// Parameters in order.
    pub params: Vec<Param>,
    /// Template arguments of an instance; empty for a non-template function and a pattern.
    pub template_args: Vec<TemplateArg>,
    /// Whether this is the uninstantiated body of a function template (types may be
    /// dependent: `<dependent type>`, `T *`).
    pub is_template_pattern: bool,
    /// The template's parameters, on its pattern and on each instance alike; empty for a
    /// function that is not a template.
    pub template_params: Vec<TemplateParam>,
    /// The body (a `CompoundStmt`), `None` for a prototype.
    pub body: Option<Node>,
    /// The whole declaration.
    pub range: Option<SrcRange>,
    /// The name's location.
    pub name_range: Option<SrcRange>,
    /// clang's errors located inside the declaration. Non-empty means clang recovered from
    /// errors in this function and its tree cannot be trusted; other functions are unaffected.
    pub errors: Vec<ClangDiagnostic>,
    /// Kernel launches in the body, in source order.
    pub launches: Vec<Launch>,
}

/// A parameter of a function template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateParam {
    /// Its name (empty when unnamed).
    pub name: String,
    /// A type parameter (`typename T`), else a value parameter (`int N`) or a template.
    pub is_type: bool,
    /// Whether the template gives it a default argument.
    pub has_default: bool,
}

impl Function {
    /// Whether this is a `__global__` function.
    pub fn is_kernel(&self) -> bool {
        self.space == ExecSpace::Global
    }
    /// `scope::name`, or `name` at file scope.
    pub fn qualified_name(&self) -> String {
        if self.scope.is_empty() {
            self.name.clone()
        } else {
            format!("{}::{}", self.scope, self.name)
        }
    }
}

/// How a launch is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaunchKind {
    /// `k<<<grid, block, shmem, stream>>>(args)`.
    Chevron,
    /// `cudaLaunchKernel(k, grid, block, args, shmem, stream)`.
    LaunchKernel,
    /// `cudaLaunchCooperativeKernel(k, grid, block, args, shmem, stream)`.
    LaunchCooperativeKernel,
}

/// One kernel launch.
#[derive(Clone, Debug)]
pub struct Launch {
    /// How it is written.
    pub kind: LaunchKind,
    /// The kernel's name as resolved (`k` for `k<128>`), when the callee is a known function.
    pub kernel: Option<String>,
    /// clang's id of the launched declaration (the instance for a template kernel); joins
    /// with [`Function::id`].
    pub callee_id: Option<String>,
    /// The callee expression's text (`k<128>`, `(void *)k`).
    pub callee_text: Option<SrcText>,
    /// The configuration as written: grid, block, then shared memory and stream when given.
    pub config: Vec<SrcText>,
    /// The kernel arguments as written (for the runtime calls: the argument-array expression).
    pub args: Vec<SrcText>,
    /// The whole launch expression.
    pub range: Option<SrcRange>,
}

/// The kinds of statements and expressions the model distinguishes; everything else is
/// [`NodeKind::Other`] with clang's kind name, its children still walked.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// `{ … }`.
    Compound,
    /// A declaration statement; children are [`NodeKind::Var`] nodes.
    DeclStmt,
    /// A variable; its child, if any, is the initializer.
    Var {
        /// The name.
        name: String,
        /// clang's id (what [`NodeKind::DeclRef::decl_id`] points to).
        id: String,
        /// `static`, `extern`.
        storage_class: Option<String>,
        /// Declared `constexpr`.
        is_constexpr: bool,
        /// `__shared__`.
        is_shared: bool,
        /// `__constant__`.
        is_constant: bool,
        /// `c`, `call` or `list` when initialized.
        init_style: Option<String>,
        /// The declared type with its sugar removed (`cooperative_groups::thread_block` for
        /// `cg::thread_block`), when it differs from the node's type.
        desugared: Option<String>,
    },
    /// `for (init; cond; inc) body`: children are init, cond, inc, body with
    /// [`NodeKind::Empty`] for an absent part.
    For,
    /// `while (cond) body`.
    While,
    /// `do body while (cond)`: children body, cond.
    Do,
    /// `if (cond) then [else]`: children cond, then, and else when `has_else`.
    If {
        /// An else branch exists (the last child).
        has_else: bool,
        /// `if constexpr`.
        is_constexpr: bool,
    },
    /// `return [e]`.
    Return,
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `name: stmt`; the child is the statement.
    Label {
        /// The label's name.
        name: String,
        /// clang's id of the label's declaration (what a [`NodeKind::Goto`] names).
        decl_id: String,
    },
    /// `goto name`.
    Goto {
        /// clang's id of the declaration of the label it jumps to.
        target: String,
    },
    /// `switch (e) body`.
    Switch,
    /// `case v: stmt`: children value, statement.
    Case,
    /// `default: stmt`.
    Default,
    /// A call; children callee, then arguments.
    Call {
        /// The called function's name when the callee is a plain name.
        callee: Option<String>,
    },
    /// `obj.method(args)`; children the `Member` callee, then arguments.
    MemberCall {
        /// The method name.
        method: Option<String>,
    },
    /// An overloaded operator call (`a + b` on `__half`); children the operator, then operands.
    OperatorCall {
        /// The operator function's name (`operator+`).
        operator: Option<String>,
    },
    /// A kernel launch expression (its launch is also in [`Function::launches`]).
    KernelCall,
    /// `a op b`.
    Binary {
        /// The operator (`+`, `<`, `=`, `,`).
        op: String,
    },
    /// `a op= b`.
    CompoundAssign {
        /// The operator (`+=`).
        op: String,
    },
    /// `op a` or `a op`.
    Unary {
        /// The operator (`-`, `!`, `++`, `*`, `&`).
        op: String,
        /// `a++` rather than `++a`.
        postfix: bool,
    },
    /// `a[i]`: children base, index.
    ArraySubscript,
    /// `a.m` / `a->m`.
    Member {
        /// The member name.
        name: String,
        /// `->`.
        arrow: bool,
        /// clang's id of the member's declaration (a method's: what a call of it runs).
        decl: Option<String>,
    },
    /// A built-in index variable's component (`threadIdx.x`).
    BuiltinVar {
        /// `threadIdx`, `blockIdx`, `blockDim` or `gridDim`.
        var: String,
        /// `x`, `y` or `z`.
        field: char,
    },
    /// A name.
    DeclRef {
        /// The name.
        name: String,
        /// clang's id of the declaration.
        decl_id: String,
        /// The declaration's kind (`ParmVarDecl`, `VarDecl`, `FunctionDecl`, …).
        decl_kind: String,
    },
    /// An implicit conversion.
    ImplicitCast {
        /// clang's cast kind.
        cast: String,
    },
    /// `(T)e`.
    CStyleCast {
        /// clang's cast kind.
        cast: String,
    },
    /// `static_cast<T>(e)`.
    StaticCast,
    /// `reinterpret_cast<T>(e)`.
    ReinterpretCast,
    /// `T(e)`.
    FunctionalCast,
    /// `(e)`.
    Paren,
    /// An integer literal (decimal text; may exceed 64 bits).
    IntegerLiteral {
        /// The value as clang prints it.
        value: String,
    },
    /// A floating literal.
    FloatingLiteral {
        /// The value as clang prints it.
        value: String,
    },
    /// `true`/`false`.
    BoolLiteral {
        /// The value.
        value: bool,
    },
    /// A string literal.
    StringLiteral {
        /// The literal as written, quotes included.
        value: String,
    },
    /// `c ? a : b`.
    Conditional,
    /// `{a, b}`.
    InitList,
    /// A constant expression clang evaluated; the child is the expression.
    Constant {
        /// The value when clang printed one.
        value: Option<String>,
    },
    /// `sizeof`/`alignof` of a type (or, without one, of its child expression's type).
    TypeTrait {
        /// `sizeof`, `alignof`, …
        name: String,
        /// The type operand, desugared when clang gave that.
        arg_ty: Option<String>,
    },
    /// A type name declared in a body (`typedef typename AccType<T>::type acc_t;`): clang
    /// prints no desugared type for an array or pointer of it (`acc_t[256]`), only here.
    TypeName {
        /// The name.
        name: String,
        /// What it stands for, desugared when clang gave that (`float` in an instance).
        target: String,
    },
    /// An absent optional part (of `for`).
    Empty,
    /// Any other node kind, by clang's name.
    Other {
        /// clang's kind (`CXXConstructExpr`, `LambdaExpr`, …).
        kind: String,
    },
}

/// A statement or expression: kind, type, place, children in clang's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// What it is.
    pub kind: NodeKind,
    /// Expressions: the type clang gave it (`<dependent type>` inside a template pattern).
    pub ty: Option<String>,
    /// Expressions: the type behind `ty`'s aliases where clang gives it (`float` for a
    /// function-local `using acc_t = …;` in an instance, which no file-wide map can resolve).
    pub desugared: Option<String>,
    /// Where it is in the user's file (absent for implicit nodes).
    pub range: Option<SrcRange>,
    /// Children in clang's order.
    pub children: Vec<Node>,
}

impl Node {
    /// Every node of the tree, pre-order.
    pub fn walk(&self) -> Vec<&Node> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(n.children.iter().rev());
        }
        out
    }
}

/// The model of one file.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Every function declared in the user's files (the main file and the headers it
    /// includes that are not stand-ins), in document order; template patterns are followed
    /// by their instances.
    pub functions: Vec<Function>,
    /// The user's type names (`typedef`, `using`) by qualified name, with the type each
    /// stands for.
    pub typedefs: HashMap<String, String>,
    /// The user's variables of namespace scope, by clang id.
    pub globals: HashMap<String, GlobalVar>,
    /// The user's structs and classes with a definition, by qualified name (`ns::Node`; an
    /// unnamed one by the name of the `typedef` that names it), with their data members.
    pub records: HashMap<String, Record>,
    /// The user's enumeration types by qualified name (their values are integers).
    pub enums: HashSet<String>,
    /// The value of every enumerator of those types, by clang id.
    pub enumerators: HashMap<String, i64>,
    /// The enumerators of each named enumeration type (by qualified name), in order, with
    /// their values.
    pub enum_members: HashMap<String, Vec<(String, i64)>>,
    /// Every reference to a function that lies outside the bodies in [`Model::functions`] that
    /// are not template patterns: namespace-scope initializers (`kern_t table[] = {k};`), default
    /// arguments, template patterns' bodies, members of class templates the model does not
    /// build. A function named here may be called from code the model does not show.
    pub loose_refs: Vec<FunctionRef>,
    /// The call operator of every lambda in the bodies built (not a generic lambda's, which
    /// is a template), by clang id: what a call of the lambda runs. Its body stays in the
    /// enclosing body too, under the `LambdaExpr`.
    pub lambdas: HashMap<String, Function>,
}

/// A struct or class definition of the user's files: its non-static data members in
/// declaration order (what its layout is made of).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    /// `struct`, `class` or `union`.
    pub tag: String,
    /// The data members: name and type (desugared when clang gave that).
    pub fields: Vec<(String, String)>,
    /// Its base classes' types in declaration order (desugared when clang gave that); their
    /// members come first in the layout.
    pub bases: Vec<String>,
    /// A base is `virtual` (its place in the object is not fixed by the type).
    pub virtual_bases: bool,
    /// An alignment is written on it (`alignas`, `__align__`): its size may exceed its members'.
    pub aligned: bool,
    /// The written alignment in bytes, when clang gives its value (`alignas(16)`; not in a
    /// template's pattern, where it may depend on a parameter).
    pub align: Option<u64>,
}

/// A reference to a function outside the bodies the model holds ([`Model::loose_refs`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionRef {
    /// clang's id of the function referred to; `None` for a name a template pattern leaves
    /// unresolved (`UnresolvedLookupExpr`), which may mean any function of that name.
    pub decl_id: Option<String>,
    /// The name referred to.
    pub name: String,
    /// Where the reference is.
    pub range: Option<SrcRange>,
}

/// A variable of namespace scope in the user's files.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVar {
    /// The name.
    pub name: String,
    /// Its type, desugared when clang gave that.
    pub ty: String,
    /// `__shared__`.
    pub shared: bool,
    /// `__constant__`.
    pub constant: bool,
    /// `__device__`.
    pub device: bool,
    /// Declared with an initializer.
    pub initialized: bool,
    /// The initializer of a constant (`constexpr`, or `const` with a value).
    pub value: Option<Node>,
}

impl Model {
    /// The kernels (`__global__` functions), patterns and instances included.
    pub fn kernels(&self) -> impl Iterator<Item = &Function> {
        self.functions.iter().filter(|f| f.is_kernel())
    }
    /// The functions named `name` (unqualified), in document order.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Function> {
        self.functions.iter().filter(move |f| f.name == name)
    }
    /// The function with clang id `id`.
    pub fn by_id(&self, id: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.id == id)
    }
    /// The definition of the function declared with clang id `id`: the declaration itself when
    /// it has a body, else the redeclaration that does (a call through a prototype declared
    /// before the definition names the prototype).
    pub fn definition(&self, id: &str) -> Option<&Function> {
        let mut ids = vec![id];
        let mut i = 0;
        while let Some(cur) = ids.get(i).copied() {
            if let Some(f) = self.by_id(cur).filter(|f| f.body.is_some()) {
                return Some(f);
            }
            ids.extend(
                self.functions.iter().filter(|f| f.previous.as_deref() == Some(cur)).map(|f| f.id.as_str()),
            );
            i += 1;
        }
        None
    }
    /// Every launch of every function, with the launching function.
    pub fn launches(&self) -> impl Iterator<Item = (&Function, &Launch)> {
        self.functions.iter().flat_map(|f| f.launches.iter().map(move |l| (f, l)))
    }
}

/// Reads source bytes by file name, caching each file; a file that cannot be read yields no
/// text (the caller's ranges stay valid).
#[derive(Default)]
pub struct Sources {
    files: HashMap<Arc<str>, Option<Vec<u8>>>,
}

impl Sources {
    /// The exact text of `range`, or `None` if the file is unreadable or the range is not in it.
    pub fn text(&mut self, range: &SrcRange) -> Option<String> {
        let bytes = self
            .files
            .entry(range.file.clone())
            .or_insert_with(|| std::fs::read(&*range.file).ok())
            .as_ref()?;
        let b = bytes.get(range.start.offset..range.end)?;
        Some(String::from_utf8_lossy(b).into_owned())
    }
}

/// Builds the model from a parsed dump. `diagnostics` are clang's, matched to functions by
/// position.
pub fn build(unit: &ast::Node, diagnostics: &[ClangDiagnostic], sources: &mut Sources) -> Model {
    let mut b = Builder {
        functions: Vec::new(),
        seen: HashSet::new(),
        sources,
        typedefs: HashMap::new(),
        globals: HashMap::new(),
        records: HashMap::new(),
        unnamed_record: None,
        enums: HashSet::new(),
        enumerators: HashMap::new(),
        enum_members: HashMap::new(),
        lambdas: HashMap::new(),
    };
    for decl in &unit.inner {
        b.decl(decl, "");
    }
    let mut functions = b.functions;
    for f in &mut functions {
        let Some(range) = &f.range else { continue };
        f.errors = diagnostics
            .iter()
            .filter(|d| matches!(d.severity, super::Severity::Error | super::Severity::Fatal))
            .filter(|d| d.file.as_deref().is_some_and(|file| same_file(file, &range.file)))
            .filter(|d| range.contains_line_col(d.line, d.col))
            .cloned()
            .collect();
    }
    // The bodies analysed elsewhere are those of functions built here that are not patterns;
    // every other function reference is loose.
    let analysed: HashSet<&str> = functions
        .iter()
        .filter(|f| !f.is_template_pattern && f.body.is_some())
        .map(|f| f.id.as_str())
        .collect();
    let mut loose_refs = Vec::new();
    for decl in &unit.inner {
        loose_function_refs(decl, &analysed, &mut loose_refs);
    }
    Model {
        functions,
        typedefs: b.typedefs,
        globals: b.globals,
        records: b.records,
        enums: b.enums,
        enumerators: b.enumerators,
        enum_members: b.enum_members,
        loose_refs,
        lambdas: b.lambdas,
    }
}

/// The function references under `n` outside the bodies of `analysed` functions (by id).
fn loose_function_refs(n: &ast::Node, analysed: &HashSet<&str>, out: &mut Vec<FunctionRef>) {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        match n.kind.as_str() {
            "DeclRefExpr" => {
                if let Some(r) = n.referenced_decl.as_ref().filter(|r| r.kind.contains("Function")) {
                    out.push(FunctionRef {
                        decl_id: Some(r.id.clone()),
                        name: r.name.clone().unwrap_or_default(),
                        range: n.range.as_ref().and_then(src_range),
                    });
                }
            }
            "UnresolvedLookupExpr" | "UnresolvedMemberExpr" => out.push(FunctionRef {
                decl_id: None,
                name: n.name.clone().unwrap_or_default(),
                range: n.range.as_ref().and_then(src_range),
            }),
            _ => {}
        }
        let skip_body = matches!(n.kind.as_str(), "FunctionDecl" | "CXXMethodDecl" | "CXXConversionDecl")
            && analysed.contains(n.id.as_str());
        // A template with instances in the file runs only as those instances, whose bodies
        // are analysed: its pattern (the first function of a function template, the record of
        // a class template) refers to nothing that runs. One without instances keeps its
        // pattern's references (it may be instantiated where the file does not show).
        let pattern = match n.kind.as_str() {
            "FunctionTemplateDecl" => {
                let mut fns =
                    n.inner.iter().filter(|c| matches!(c.kind.as_str(), "FunctionDecl" | "CXXMethodDecl"));
                let first = fns.next();
                first.filter(|_| fns.next().is_some()).map(|f| f.id.as_str())
            }
            "ClassTemplateDecl" if n.inner.iter().any(|c| c.kind == "ClassTemplateSpecializationDecl") => {
                n.inner.iter().find(|c| c.kind == "CXXRecordDecl").map(|c| c.id.as_str())
            }
            _ => None,
        };
        stack.extend(
            n.inner
                .iter()
                .filter(|c| !(skip_body && c.kind == "CompoundStmt"))
                .filter(|c| pattern != Some(c.id.as_str())),
        );
    }
}

/// Whether clang's diagnostic file name and JSON file name denote the same file: they are
/// spelled alike in practice, but a `./` prefix or a symlinked directory may differ.
fn same_file(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

struct Builder<'s> {
    functions: Vec<Function>,
    seen: HashSet<String>,
    sources: &'s mut Sources,
    typedefs: HashMap<String, String>,
    globals: HashMap<String, GlobalVar>,
    records: HashMap<String, Record>,
    /// The unnamed struct just defined (`typedef struct { … } Pair;` names it next).
    unnamed_record: Option<Record>,
    enums: HashSet<String>,
    enumerators: HashMap<String, i64>,
    enum_members: HashMap<String, Vec<(String, i64)>>,
    lambdas: HashMap<String, Function>,
}

/// The value of the first `ConstantExpr` in `n` (an enumerator's written value, under casts).
fn constant_value(n: &ast::Node) -> Option<i64> {
    if n.kind == "ConstantExpr" {
        return n.value.as_ref().and_then(json_int);
    }
    n.inner.iter().find_map(constant_value)
}

/// An integer clang printed as a string or a number.
fn json_int(v: &serde_json::Value) -> Option<i64> {
    match v {
        serde_json::Value::String(s) => s.parse().ok(),
        v => v.as_i64(),
    }
}

/// The data members of a record definition.
fn record_of(d: &ast::Node) -> Record {
    let fields = d
        .inner
        .iter()
        .filter(|c| c.kind == "FieldDecl")
        .map(|c| {
            let ty = c.ty.as_ref().map(|t| t.desugared.clone().unwrap_or_else(|| t.qual.clone()));
            (c.name.clone().unwrap_or_default(), ty.unwrap_or_default())
        })
        .collect();
    Record {
        tag: d.tag_used.clone().unwrap_or_default(),
        fields,
        bases: d
            .bases
            .iter()
            .map(|b| {
                b.ty.as_ref()
                    .map(|t| t.desugared.clone().unwrap_or_else(|| t.qual.clone()))
                    .unwrap_or_default()
            })
            .collect(),
        virtual_bases: d.bases.iter().any(|b| b.is_virtual),
        aligned: d.inner.iter().any(|c| c.kind == "AlignedAttr"),
        // The largest alignment written wins, as in C++; one whose value is not known leaves
        // the alignment unknown.
        align: d
            .inner
            .iter()
            .filter(|c| c.kind == "AlignedAttr")
            .map(|c| constant_value(c).and_then(|v| u64::try_from(v).ok()))
            .try_fold(None, |best: Option<u64>, a| a.map(|a| Some(best.map_or(a, |b| b.max(a)))))
            .flatten(),
    }
}

fn join_scope(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}::{name}")
    }
}

impl Builder<'_> {
    fn decl(&mut self, d: &ast::Node, scope: &str) {
        self.decl_kind(d, scope);
        // Only the declaration right after an unnamed struct may name it.
        if !matches!(d.kind.as_str(), "CXXRecordDecl" | "RecordDecl") {
            self.unnamed_record = None;
        }
    }

    fn decl_kind(&mut self, d: &ast::Node, scope: &str) {
        match d.kind.as_str() {
            "FunctionDecl" | "CXXMethodDecl" | "CXXConversionDecl" => {
                self.function(d, scope, false, Vec::new())
            }
            "FunctionTemplateDecl" => {
                // The first FunctionDecl child is the pattern; later ones are the instances
                // clang created (implicit or explicit).
                let mut first = true;
                let params = template_params(d);
                for c in &d.inner {
                    if matches!(c.kind.as_str(), "FunctionDecl" | "CXXMethodDecl") {
                        let args = instance_args(d, c);
                        self.function(c, scope, first, args);
                        if let Some(f) = self.functions.last_mut().filter(|f| f.id == c.id) {
                            f.template_params = params.clone();
                        }
                        first = false;
                    }
                }
            }
            "NamespaceDecl" => {
                let inner = join_scope(scope, d.name.as_deref().unwrap_or("(anonymous)"));
                for c in &d.inner {
                    self.decl(c, &inner);
                }
            }
            "LinkageSpecDecl" => {
                for c in &d.inner {
                    self.decl(c, scope);
                }
            }
            // A variable of namespace scope: `__constant__ float c_k[9];`, `__device__ int n;`.
            "VarDecl" => {
                if let (Some(name), Some(ty)) = (&d.name, &d.ty) {
                    let has = |k: &str| d.inner.iter().any(|c| c.kind == k);
                    let is_const = d.constexpr || ty.qual.trim_start().starts_with("const ");
                    // The value of a constant (`constexpr int kThreads = 128;`), for the lowering.
                    let init = d.inner.iter().find(|c| !c.kind.ends_with("Attr"));
                    let value = init.filter(|_| is_const).map(|c| self.node(c));
                    self.globals.insert(
                        d.id.clone(),
                        GlobalVar {
                            name: name.clone(),
                            ty: ty.desugared.clone().unwrap_or_else(|| ty.qual.clone()),
                            shared: has("CUDASharedAttr"),
                            constant: has("CUDAConstantAttr"),
                            device: has("CUDADeviceAttr"),
                            initialized: init.is_some(),
                            value,
                        },
                    );
                }
            }
            // A type name and what it stands for (`uchar` → `unsigned char`), for the lowering.
            "TypedefDecl" | "TypeAliasDecl" => {
                if let (Some(name), Some(ty)) = (&d.name, &d.ty) {
                    let target = ty.desugared.clone().unwrap_or_else(|| ty.qual.clone());
                    let qualified = join_scope(scope, name);
                    if let Some(r) = self.unnamed_record.take() {
                        self.records.entry(qualified.clone()).or_insert(r);
                    }
                    self.typedefs.entry(qualified).or_insert(target);
                }
            }
            "EnumDecl" => {
                let qualified = d.name.as_ref().map(|name| join_scope(scope, name));
                if let Some(q) = &qualified {
                    self.enums.insert(q.clone());
                }
                // Each enumerator is its written value or the one before it plus one.
                let mut next = 0i64;
                let mut members = Vec::new();
                for c in d.inner.iter().filter(|c| c.kind == "EnumConstantDecl") {
                    let written = c.inner.iter().find_map(constant_value);
                    let v = written.unwrap_or(next);
                    self.enumerators.insert(c.id.clone(), v);
                    members.push((c.name.clone().unwrap_or_default(), v));
                    next = v.wrapping_add(1);
                }
                if let Some(q) = qualified {
                    self.enum_members.entry(q).or_insert(members);
                }
            }
            // A class template: its instances are records (`Packet<float, 4>`) whose methods
            // are functions like any other (`SharedMemory<float>::operator float *`).
            "ClassTemplateDecl" => {
                for c in d.inner.iter().filter(|c| c.kind == "ClassTemplateSpecializationDecl") {
                    self.class_instance(d, c, scope);
                }
            }
            "ClassTemplateSpecializationDecl" => self.class_instance(d, d, scope),
            "CXXRecordDecl" | "RecordDecl" if !d.is_implicit => {
                let record = d.complete_definition.then(|| record_of(d));
                match &d.name {
                    Some(name) => {
                        let inner = join_scope(scope, name);
                        if let Some(r) = record {
                            self.records.entry(inner.clone()).or_insert(r);
                        }
                        for c in &d.inner {
                            self.decl(c, &inner);
                        }
                    }
                    None => self.unnamed_record = record,
                }
            }
            _ => {}
        }
    }

    /// An instance of a class template (`Packet<float, 4>`): a record, and a scope for its
    /// methods (`SharedMemory<float>::operator float *`).
    fn class_instance(&mut self, template: &ast::Node, d: &ast::Node, scope: &str) {
        let Some(name) = &d.name else { return };
        let args: Vec<String> = instance_args(template, d)
            .into_iter()
            .map(|a| match a {
                TemplateArg::Value(v) | TemplateArg::Type(v) | TemplateArg::Other(v) => v,
            })
            .collect();
        let inner = join_scope(scope, &format!("{name}<{}>", args.join(", ")));
        if d.complete_definition {
            self.records.entry(inner.clone()).or_insert_with(|| record_of(d));
        }
        for c in &d.inner {
            self.decl(c, &inner);
        }
    }

    fn function(&mut self, d: &ast::Node, scope: &str, is_pattern: bool, template_args: Vec<TemplateArg>) {
        if d.is_implicit || !self.seen.insert(d.id.clone()) {
            return;
        }
        let f = self.make_function(d, scope, is_pattern, template_args);
        self.functions.push(f);
    }

    /// The call operators of the lambda `n` (a `LambdaExpr`) into [`Builder::lambdas`].
    fn lambda(&mut self, n: &ast::Node) {
        let class = n.inner.iter().filter(|c| c.kind == "CXXRecordDecl");
        for m in class.flat_map(|c| &c.inner) {
            if m.kind == "CXXMethodDecl" && m.name.as_deref() == Some("operator()") {
                let f = self.make_function(m, "", false, Vec::new());
                self.lambdas.insert(m.id.clone(), f);
            }
        }
    }

    fn make_function(
        &mut self,
        d: &ast::Node,
        scope: &str,
        is_pattern: bool,
        template_args: Vec<TemplateArg>,
    ) -> Function {
        let mut global = false;
        let mut device = false;
        let mut host = false;
        let mut params = Vec::new();
        let mut body = None;
        for c in &d.inner {
            match c.kind.as_str() {
                "CUDAGlobalAttr" => global = true,
                "CUDADeviceAttr" => device = true,
                "CUDAHostAttr" => host = true,
                "ParmVarDecl" => {
                    let default = c.inner.iter().find(|i| !i.kind.ends_with("Attr")).map(|i| self.node(i));
                    params.push(Param {
                        id: c.id.clone(),
                        name: c.name.clone().unwrap_or_default(),
                        ty: c.ty.as_ref().map(|t| t.qual.clone()).unwrap_or_default(),
                        desugared: c.ty.as_ref().and_then(|t| t.desugared.clone()),
                        default,
                    })
                }
                "CompoundStmt" => body = Some(c),
                _ => {}
            }
        }
        let space = match (global, device, host) {
            (true, _, _) => ExecSpace::Global,
            (false, true, true) => ExecSpace::HostDevice,
            (false, true, false) => ExecSpace::Device,
            _ => ExecSpace::Host,
        };
        let mut launches = Vec::new();
        if let Some(raw) = body {
            self.collect_launches(raw, &mut launches);
        }
        let body = body.map(|b| self.node(b));
        Function {
            id: d.id.clone(),
            previous: d.previous_decl.clone(),
            name: d.name.clone().unwrap_or_default(),
            scope: scope.to_string(),
            space,
            signature: d.ty.as_ref().map(|t| t.qual.clone()).unwrap_or_default(),
            params,
            template_args,
            is_template_pattern: is_pattern,
            template_params: Vec::new(),
            body,
            range: d.range.as_ref().and_then(src_range),
            name_range: d.loc.as_ref().and_then(|l| {
                let b = l.file_loc()?;
                Some(point_range(b))
            }),
            errors: Vec::new(),
            launches,
        }
    }

    fn node(&mut self, n: &ast::Node) -> Node {
        let ty = n.ty.as_ref().map(|t| t.qual.clone());
        let desugared = n.ty.as_ref().and_then(|t| t.desugared.clone());
        let range = n.range.as_ref().and_then(src_range);
        if let Some(bv) = builtin_var(n) {
            return Node { kind: bv, ty, desugared, range, children: Vec::new() };
        }
        if n.kind == "LambdaExpr" {
            self.lambda(n);
        }
        let kind = match n.kind.as_str() {
            "CompoundStmt" => NodeKind::Compound,
            "DeclStmt" => NodeKind::DeclStmt,
            "VarDecl" => NodeKind::Var {
                name: n.name.clone().unwrap_or_default(),
                id: n.id.clone(),
                storage_class: n.storage_class.clone(),
                is_constexpr: n.constexpr,
                is_shared: n.inner.iter().any(|c| c.kind == "CUDASharedAttr"),
                is_constant: n.inner.iter().any(|c| c.kind == "CUDAConstantAttr"),
                init_style: n.init.clone(),
                desugared: n.ty.as_ref().and_then(|t| t.desugared.clone()),
            },
            "ForStmt" => NodeKind::For,
            "WhileStmt" => NodeKind::While,
            "DoStmt" => NodeKind::Do,
            "IfStmt" => NodeKind::If { has_else: n.has_else, is_constexpr: n.is_constexpr },
            "ReturnStmt" => NodeKind::Return,
            "BreakStmt" => NodeKind::Break,
            "ContinueStmt" => NodeKind::Continue,
            "SwitchStmt" => NodeKind::Switch,
            "LabelStmt" => NodeKind::Label {
                name: n.name.clone().unwrap_or_default(),
                decl_id: n.decl_id.clone().unwrap_or_default(),
            },
            "GotoStmt" => NodeKind::Goto { target: n.target_label_decl_id.clone().unwrap_or_default() },
            "CaseStmt" => NodeKind::Case,
            "DefaultStmt" => NodeKind::Default,
            "CallExpr" => NodeKind::Call { callee: n.inner.first().and_then(callee_name) },
            "CXXMemberCallExpr" => {
                NodeKind::MemberCall { method: n.inner.first().and_then(|c| strip(c).name.clone()) }
            }
            "CXXOperatorCallExpr" => {
                NodeKind::OperatorCall { operator: n.inner.first().and_then(callee_name) }
            }
            "CUDAKernelCallExpr" => NodeKind::KernelCall,
            "BinaryOperator" => NodeKind::Binary { op: n.opcode.clone().unwrap_or_default() },
            "CompoundAssignOperator" => NodeKind::CompoundAssign { op: n.opcode.clone().unwrap_or_default() },
            "UnaryOperator" => {
                NodeKind::Unary { op: n.opcode.clone().unwrap_or_default(), postfix: n.is_postfix }
            }
            "ArraySubscriptExpr" => NodeKind::ArraySubscript,
            "MemberExpr" => NodeKind::Member {
                name: n.name.clone().unwrap_or_default(),
                arrow: n.is_arrow,
                decl: n.referenced_member_decl.clone(),
            },
            "DeclRefExpr" => {
                let r = n.referenced_decl.clone().unwrap_or_default();
                NodeKind::DeclRef { name: r.name.unwrap_or_default(), decl_id: r.id, decl_kind: r.kind }
            }
            "ImplicitCastExpr" => NodeKind::ImplicitCast { cast: n.cast_kind.clone().unwrap_or_default() },
            "CStyleCastExpr" => NodeKind::CStyleCast { cast: n.cast_kind.clone().unwrap_or_default() },
            "CXXStaticCastExpr" => NodeKind::StaticCast,
            "CXXReinterpretCastExpr" => NodeKind::ReinterpretCast,
            "CXXFunctionalCastExpr" => NodeKind::FunctionalCast,
            "ParenExpr" => NodeKind::Paren,
            // A character literal is its code as an integer of its type (`'a'` is 97, a `char`).
            "IntegerLiteral" | "CharacterLiteral" => {
                NodeKind::IntegerLiteral { value: value_text(n).unwrap_or_default() }
            }
            "FloatingLiteral" => NodeKind::FloatingLiteral { value: value_text(n).unwrap_or_default() },
            "CXXBoolLiteralExpr" => {
                NodeKind::BoolLiteral { value: n.value.as_ref().and_then(|v| v.as_bool()).unwrap_or(false) }
            }
            "StringLiteral" => NodeKind::StringLiteral { value: value_text(n).unwrap_or_default() },
            "ConditionalOperator" => NodeKind::Conditional,
            "InitListExpr" => NodeKind::InitList,
            "ConstantExpr" => NodeKind::Constant { value: value_text(n) },
            "UnaryExprOrTypeTraitExpr" => NodeKind::TypeTrait {
                name: n.name.clone().unwrap_or_default(),
                arg_ty: n.arg_type.as_ref().map(|t| t.desugared.clone().unwrap_or_else(|| t.qual.clone())),
            },
            "NullStmt" => NodeKind::Empty,
            "TypedefDecl" | "TypeAliasDecl" => NodeKind::TypeName {
                name: n.name.clone().unwrap_or_default(),
                target: n
                    .ty
                    .as_ref()
                    .map(|t| t.desugared.clone().unwrap_or_else(|| t.qual.clone()))
                    .unwrap_or_default(),
            },
            other => NodeKind::Other { kind: other.to_string() },
        };
        // An initializer list's filler (the first of `array_filler`) is the value of the
        // elements not written: zero for scalars, which is what C++ gives them anyway.
        let written = n.array_filler.iter().skip(1);
        let mut children: Vec<Node> = written
            .chain(&n.inner)
            .filter(|c| !c.kind.ends_with("Attr"))
            .map(|c| {
                // clang prints an absent part (of a `for` header, say) as `{}`.
                if c.kind.is_empty() {
                    Node {
                        kind: NodeKind::Empty,
                        ty: None,
                        desugared: None,
                        range: None,
                        children: Vec::new(),
                    }
                } else {
                    self.node(c)
                }
            })
            .collect();
        // clang prints five `for` children: init, condition variable, cond, inc, body. The
        // condition variable (`for (; int x = f();)`) is kept inside cond's place only when
        // present; otherwise the documented (init, cond, inc, body) shape is restored.
        if kind == NodeKind::For && children.len() == 5 && children[1].kind == NodeKind::Empty {
            children.remove(1);
        }
        Node { kind, ty, desugared, range, children }
    }

    fn collect_launches(&mut self, n: &ast::Node, out: &mut Vec<Launch>) {
        let mut stack = vec![n];
        let mut found = Vec::new();
        while let Some(n) = stack.pop() {
            match n.kind.as_str() {
                "CUDAKernelCallExpr" => found.push((n, LaunchKind::Chevron)),
                "CallExpr" => match n.inner.first().and_then(callee_name).as_deref() {
                    Some("cudaLaunchKernel") => found.push((n, LaunchKind::LaunchKernel)),
                    Some("cudaLaunchCooperativeKernel") => {
                        found.push((n, LaunchKind::LaunchCooperativeKernel))
                    }
                    _ => {}
                },
                _ => {}
            }
            stack.extend(n.inner.iter().rev());
        }
        for (n, kind) in found {
            out.push(self.launch(n, kind));
        }
    }

    fn launch(&mut self, n: &ast::Node, kind: LaunchKind) -> Launch {
        let (callee, config, args): (Option<&ast::Node>, Vec<&ast::Node>, Vec<&ast::Node>) = match kind {
            LaunchKind::Chevron => {
                let config = n
                    .inner
                    .get(1)
                    .map(|c| c.inner.iter().skip(1).filter(|a| a.kind != "CXXDefaultArgExpr").collect())
                    .unwrap_or_default();
                (n.inner.first(), config, n.inner.iter().skip(2).collect())
            }
            _ => {
                let a: Vec<&ast::Node> = n.inner.iter().skip(1).collect();
                let written = |i: usize| a.get(i).copied().filter(|x| x.kind != "CXXDefaultArgExpr");
                let config = [1, 2, 4, 5].iter().filter_map(|&i| written(i)).collect();
                (a.first().copied(), config, written(3).into_iter().collect())
            }
        };
        let target = callee.and_then(function_ref);
        Launch {
            kind,
            kernel: target.and_then(|r| r.name.clone()),
            callee_id: target.map(|r| r.id.clone()),
            callee_text: callee.and_then(|c| self.text(c)),
            config: config.into_iter().filter_map(|c| self.text(c)).collect(),
            args: args.into_iter().filter_map(|c| self.text(c)).collect(),
            range: n.range.as_ref().and_then(src_range),
        }
    }

    fn text(&mut self, n: &ast::Node) -> Option<SrcText> {
        let range = n.range.as_ref().and_then(src_range)?;
        let text = self.sources.text(&range)?;
        Some(SrcText { text, range })
    }
}

/// `threadIdx.x` etc.: clang represents a read through our property getter as a
/// `PseudoObjectExpr` over an `MSPropertyRefExpr`; the getter's name (`__fetch_x`, from our
/// stand-in header) names the component.
fn builtin_var(n: &ast::Node) -> Option<NodeKind> {
    if n.kind != "PseudoObjectExpr" {
        return None;
    }
    // Through parentheses: a macro argument `(a)` holding `threadIdx.x`.
    let prop = find_first(n.inner.first()?, &|c| c.kind == "MSPropertyRefExpr")?;
    let var = find_first(prop, &|c| c.kind == "DeclRefExpr")?.referenced_decl.as_ref()?.name.clone()?;
    if !matches!(var.as_str(), "threadIdx" | "blockIdx" | "blockDim" | "gridDim") {
        return None;
    }
    let getter = n
        .inner
        .iter()
        .skip(1)
        .find_map(|c| {
            find_first(c, &|m| {
                m.kind == "MemberExpr" && m.name.as_deref().is_some_and(|s| s.starts_with("__fetch_"))
            })
        })?
        .name
        .clone()?;
    let field = getter.strip_prefix("__fetch_")?.chars().next()?;
    Some(NodeKind::BuiltinVar { var, field })
}

fn find_first<'a>(n: &'a ast::Node, pred: &dyn Fn(&ast::Node) -> bool) -> Option<&'a ast::Node> {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        if pred(n) {
            return Some(n);
        }
        stack.extend(n.inner.iter().rev());
    }
    None
}

/// The node under implicit casts and parentheses.
fn strip(mut n: &ast::Node) -> &ast::Node {
    while matches!(n.kind.as_str(), "ImplicitCastExpr" | "ParenExpr") && !n.inner.is_empty() {
        n = &n.inner[0];
    }
    n
}

/// The function a callee expression names: through implicit and explicit casts, `&`, and
/// parentheses, a `DeclRefExpr` to a function (an `UnresolvedLookupExpr` in a template only
/// has a name).
fn function_ref(n: &ast::Node) -> Option<&ast::DeclRef> {
    let mut n = n;
    loop {
        match n.kind.as_str() {
            "ImplicitCastExpr"
            | "ParenExpr"
            | "CStyleCastExpr"
            | "CXXReinterpretCastExpr"
            | "CXXStaticCastExpr"
            | "UnaryOperator" => n = n.inner.first()?,
            "DeclRefExpr" => {
                let r = n.referenced_decl.as_ref()?;
                return r.kind.contains("Function").then_some(r);
            }
            _ => return None,
        }
    }
}

fn callee_name(n: &ast::Node) -> Option<String> {
    let s = strip(n);
    match s.kind.as_str() {
        "DeclRefExpr" => s.referenced_decl.as_ref()?.name.clone(),
        "UnresolvedLookupExpr" | "MemberExpr" => s.name.clone(),
        _ => None,
    }
}

fn value_text(n: &ast::Node) -> Option<String> {
    match n.value.as_ref()? {
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// The arguments of an instance of `template` (a `FunctionTemplateDecl` or
/// `ClassTemplateDecl`), a `bool` argument written `true`/`false` (clang dumps its integer
/// and gives its type only on the template's parameter).
fn instance_args(template: &ast::Node, instance: &ast::Node) -> Vec<TemplateArg> {
    let is_bool: Vec<bool> = template
        .inner
        .iter()
        .filter(|p| {
            matches!(
                p.kind.as_str(),
                "TemplateTypeParmDecl" | "NonTypeTemplateParmDecl" | "TemplateTemplateParmDecl"
            )
        })
        .map(|p| p.kind == "NonTypeTemplateParmDecl" && p.ty.as_ref().is_some_and(|t| t.qual == "bool"))
        .collect();
    template_args(instance)
        .into_iter()
        .enumerate()
        .map(|(i, a)| match a {
            TemplateArg::Value(v) if is_bool.get(i) == Some(&true) && (v == "0" || v == "1") => {
                TemplateArg::Value(if v == "1" { "true" } else { "false" }.into())
            }
            a => a,
        })
        .collect()
}

/// The parameters of a `FunctionTemplateDecl`; a default argument is dumped as the
/// parameter's `TemplateArgument` child.
fn template_params(template: &ast::Node) -> Vec<TemplateParam> {
    template
        .inner
        .iter()
        .filter(|p| {
            matches!(
                p.kind.as_str(),
                "TemplateTypeParmDecl" | "NonTypeTemplateParmDecl" | "TemplateTemplateParmDecl"
            )
        })
        .map(|p| TemplateParam {
            name: p.name.clone().unwrap_or_default(),
            is_type: p.kind == "TemplateTypeParmDecl",
            has_default: p.inner.iter().any(|a| a.kind == "TemplateArgument"),
        })
        .collect()
}

fn template_args(d: &ast::Node) -> Vec<TemplateArg> {
    d.inner
        .iter()
        .filter(|c| c.kind == "TemplateArgument")
        .map(|c| {
            if let Some(v) = value_text(c) {
                TemplateArg::Value(v)
            } else if let Some(t) = &c.ty {
                TemplateArg::Type(t.qual.clone())
            } else {
                TemplateArg::Other(c.name.clone().unwrap_or_default())
            }
        })
        .collect()
}

/// The length of the UTF-8 byte-order mark `file` starts with (0 or 3), read once per file:
/// clang counts it in offsets, our texts do not ([`crate::source`]: an offset is the file's
/// after the BOM).
fn bom_len(file: &str) -> usize {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);
    let read = || {
        let mut head = [0u8; 3];
        let n =
            std::fs::File::open(file).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
        if n == 3 && head == *b"\xEF\xBB\xBF" {
            3
        } else {
            0
        }
    };
    match SEEN.lock() {
        Ok(mut guard) => *guard.get_or_insert_with(HashMap::new).entry(file.to_string()).or_insert_with(read),
        Err(_) => read(),
    }
}

/// A clang offset in `file` as an offset of our text of it.
fn text_offset(file: &str, offset: u64) -> usize {
    (offset as usize).saturating_sub(bom_len(file))
}

fn point_range(b: &Bare) -> SrcRange {
    let start = Pos { offset: text_offset(&b.file, b.offset), line: b.line, col: b.col };
    SrcRange { file: b.file.clone(), start, end: start.offset + b.tok_len as usize, last_token: start }
}

/// The user-visible range ([`ast::Loc::file_loc`] of both ends), begin and end in one file.
fn src_range(r: &ast::Range) -> Option<SrcRange> {
    let (mut b, mut e) = (r.begin.file_loc()?, r.end.file_loc()?);
    if b.file != e.file || e.offset < b.offset {
        // A node from a macro argument to the macro's body (`LOAD(s, in, i)` expanding to
        // `s[i] = in[i]`): the macro's use, from its name (the lowering adds the arguments).
        b = r.begin.expansion.as_ref()?;
        e = r.end.expansion.as_ref()?;
        if b.file != e.file || e.offset < b.offset {
            return None;
        }
    }
    Some(SrcRange {
        file: b.file.clone(),
        start: Pos { offset: text_offset(&b.file, b.offset), line: b.line, col: b.col },
        end: text_offset(&b.file, e.offset + u64::from(e.tok_len)),
        last_token: Pos { offset: text_offset(&b.file, e.offset), line: e.line, col: e.col },
    })
}
