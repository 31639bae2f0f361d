//! Verdicts, synthesis failures and interpreter runs as diagnostics (and the label map of the
//! JSON output).

use super::load::Loaded;
use super::output::Out;
use super::wording::{
    and_list, array_name, assume_help, element_phrase, model_values, rank, ranks, thread_text,
    warp_sync_help, witness_values, Ctx, LABELS_EXPLAINED,
};
use crate::diag::{line_col, Diagnostic, Severity};
use crate::kpl::{self, Kernel, StmtKind, WriteMode};
use crate::synth::Unfixable;
use crate::verify::{AccessKind, IndexInput, NamedProblem, OutOfBounds, Race, Relation, Scope, Verdict};
use serde_json::{json, Value};

/// Label number → paper-style name, for the JSON output.
pub fn label_map(k: &Kernel) -> serde_json::Value {
    let m: serde_json::Map<String, serde_json::Value> = (0..k.label_count())
        .map(|i| (i.to_string(), serde_json::Value::String(k.label_name(kpl::Label(i)).to_string())))
        .collect();
    serde_json::Value::Object(m)
}

/// The span of the statement labelled `l` (empty when none).
pub fn stmt_span(k: &Kernel, l: kpl::Label) -> kpl::Span {
    k.stmt(l).map(|s| s.span).unwrap_or_default()
}

/// The access kind as a word of a message.
pub fn kind_word(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Read => "read",
        AccessKind::Write => "write",
        AccessKind::Atomic => "atomic",
    }
}

/// What a finding needs of an index computed from arbitrary values.
enum IndexUse {
    /// Two indices that meet (a race).
    Race,
    /// An index outside its array.
    Bounds,
}

/// The note of a finding whose indices are computed from values the check takes as arbitrary:
/// which values, and what that means for the report.
fn arbitrary_index_note(cx: &Ctx, inputs: &[IndexInput], need: IndexUse) -> String {
    let mut sources: Vec<String> = Vec::new();
    for input in inputs {
        let source = match input {
            IndexInput::Read(l) => match cx.k.stmt(*l).and_then(|s| s.access()) {
                Some((array, _, _, atomic)) => {
                    let what = if atomic { "the result of an atomic on" } else { "a read of" };
                    format!(
                        "{what} `{}` at line {} (memory's contents)",
                        array_name(cx.k, array),
                        cx.line(*l)
                    )
                }
                None => continue,
            },
            IndexInput::LoopVar(l, var) => format!(
                "`{var}` as {} leaves it (the check does not follow how the loop changes it)",
                cx.loop_phrase(*l)
            ),
        };
        if !sources.contains(&source) {
            sources.push(source);
        }
    }
    let from = if sources.is_empty() { String::new() } else { format!(": {}", and_list(&sources)) };
    match need {
        IndexUse::Race => format!(
            "the indices depend on values the check takes as arbitrary{from}; this is a race only for \
             values that make the two indices meet — if the kernel's data rules them out (say, the \
             positions always form a permutation), it is a false alarm"
        ),
        IndexUse::Bounds => format!(
            "the index depends on values the check takes as arbitrary{from}; it leaves the array only \
             for some of them — if the kernel's data rules those out, it is a false alarm"
        ),
    }
}

/// The diagnostic of a race: both accesses, the witness threads and element, one note per case.
pub fn race_diagnostic(cx: &Ctx, r: &Race, severity: Severity) -> Diagnostic {
    let k = cx.k;
    let space = k.array(&r.array).map(|a| a.space.to_string()).unwrap_or_default();
    let name = array_name(k, &r.array);
    let (what, scope_note) = match r.scope {
        Scope::Block => ("data race", None),
        Scope::Grid if !k.gridsyncs().is_empty() => (
            "grid-level data race",
            Some("threads of different blocks: no __syncthreads() can order them, and no grid barrier (`this_grid().sync()`) runs between these accesses"),
        ),
        Scope::Grid => {
            ("grid-level data race", Some("threads of different blocks: no __syncthreads() can order them"))
        }
        Scope::Copy => (
            "data race with an asynchronous copy in flight",
            Some("one thread: it issued the copy and touches its destination before the wait that lands it; \
                  no barrier orders a thread with its own copy — help: wait for the copy's group before this \
                  access (`cp.async.wait_group n` / `__pipeline_wait_prior(n)` with a smaller `n`, \
                  `cp.async.wait_all`, or a pipeline's `consumer_wait()`)"),
        ),
    };
    let wraps = r.only_with_wrap();
    let arbitrary = r.index_inputs();
    let certainty = if r.is_possible() || wraps || !arbitrary.is_empty() { "possible " } else { "" };
    // "a read", "a write", "an atomic".
    let article = |w: &str| if w.starts_with('a') { format!("an {w}") } else { format!("a {w}") };
    let msg = if r.first == r.second {
        format!(
            "{certainty}{what} on {space} array `{name}`: {} races with itself",
            article(kind_word(r.kinds[0]))
        )
    } else {
        format!(
            "{certainty}{what} on {space} array `{name}` between {} and {}",
            article(kind_word(r.kinds[0])),
            article(kind_word(r.kinds[1]))
        )
    };
    let msg = if wraps { format!("{msg} (only if the index arithmetic wraps around 2^32)") } else { msg };
    let mut d = Diagnostic::error(msg, stmt_span(k, r.first));
    d.severity = severity;
    let block_scoped = |l| k.stmt(l).is_some_and(|s| s.is_block_scoped_atomic());
    if r.scope == Scope::Grid && (block_scoped(r.first) || block_scoped(r.second)) {
        d = d.with_note(
            "an atomic of block scope (`atomicAdd_block`, …) is atomic only among the threads of one block: \
             threads of other blocks may interleave with its read and its write",
        );
    }
    if wraps {
        d = d.with_note(
            "every execution with this race computes an index whose +, -, * or << leaves the signed 32-bit range \
             (for C's unsigned sums and products: reaches 2^31 as an unsigned number); it is reported because `--wrap` asked for executions where index arithmetic wraps (docs/semantics.md)",
        );
    }
    let case0 = &r.cases[0];
    let grid = r.scope == Scope::Grid;
    let mut cure = None;
    if let Some(w) = &case0.witness {
        let ranks = ranks(k, Some(w), &[&w.threads[0], &w.threads[1]]);
        let thread = |i: usize| thread_text(&w.threads[i], ranks, grid);
        d = d.with_label(format!("{} by {}", kind_word(r.kinds[0]), thread(0)));
        if r.first != r.second {
            d = d.with_secondary(
                stmt_span(k, r.second),
                format!("{} by {}", kind_word(r.kinds[1]), thread(1)),
            );
        } else {
            d = d.with_note(format!("the other thread is {}", thread(1)));
        }
        let values = witness_values(k, w, ranks, grid);
        let with = if values.is_empty() { String::new() } else { format!(", with {}", and_list(&values)) };
        d = d.with_note(format!("both access {}{with}", element_phrase(k, &r.array, w.index)));
        // Wider accesses (vectors over narrower elements, `memcpy`): the elements each covers.
        let width = |l| u64::from(k.stmt(l).map_or(1, |s| s.width().get()));
        if let (Some(starts), true) = (w.starts, width(r.first) > 1 || width(r.second) > 1) {
            let covers = |i: usize| {
                let width = width(if i == 0 { r.first } else { r.second });
                let first = element_phrase(k, &r.array, starts[i]);
                let last = element_phrase(k, &r.array, (starts[i] + width - 1) & 0xffff_ffff);
                let range = if last == first { first } else { format!("{first} … {last}") };
                format!("the {} by {} covers {range}", kind_word(r.kinds[i]), thread(i))
            };
            d = d.with_note(format!("{}; {}", covers(0), covers(1)));
        }
        if let Some(help) = assume_help(k, w) {
            cure = Some(help);
        }
    } else if let Some(why) = &case0.undecided {
        d = d
            .with_label("the solver could not decide this pair")
            .with_note(format!("reported as possible: {why}"));
        if why.contains("ran out of time") {
            d = d.with_note(
                "help: give the solver more time: raise `verifier.smt_timeout_ms` in a configuration file (--config FILE)",
            );
        }
        if r.first != r.second {
            d = d.with_secondary(stmt_span(k, r.second), "second access");
        }
    }
    if !arbitrary.is_empty() {
        d = d.with_note(arbitrary_index_note(cx, &arbitrary, IndexUse::Race));
    }
    let kind_of = |l: kpl::Label| if l == r.second && l != r.first { r.kinds[1] } else { r.kinds[0] };
    for c in &r.cases {
        let mut note = match c.case.relation {
            Relation::SameIteration if r.first == r.second => {
                "in the same execution of the statement: no barrier can separate it".to_string()
            }
            Relation::SameIteration if r.scope == Scope::Copy => format!(
                "{} runs after the copy and before the wait that lands it",
                cx.access_phrase(kind_of(c.case.second), c.case.second)
            ),
            Relation::SameIteration => match &c.witness {
                Some(w) => same_iteration_note(
                    cx,
                    w,
                    (kind_of(c.case.first), c.case.first),
                    (kind_of(c.case.second), c.case.second),
                ),
                None => "in the same iteration of every enclosing loop".to_string(),
            },
            Relation::Carried { shared_loop, gap, or_more } => format!(
                "across iterations of {}: {} in one iteration, {} in {}",
                cx.loop_phrase(shared_loop),
                cx.access_phrase(kind_of(c.case.first), c.case.first),
                cx.access_phrase(kind_of(c.case.second), c.case.second),
                match (gap, or_more) {
                    (1, false) => "the next".to_string(),
                    (2, true) => "a later one".to_string(),
                    (g, false) => format!("the {} after", ordinal(g)),
                    (g, true) => format!("the {} after or a later one", ordinal(g)),
                }
            ),
        };
        if cx.explain {
            note.push_str(&match c.case.relation {
                Relation::Carried { shared_loop, .. } => format!(
                    " (labels: loop {}, {} then {})",
                    cx.label(shared_loop),
                    cx.label(c.case.first),
                    cx.label(c.case.second)
                ),
                Relation::SameIteration => {
                    format!(" (labels: {} and {})", cx.label(c.case.first), cx.label(c.case.second))
                }
            });
        }
        d = d.with_note(note);
    }
    let is_copy =
        |l| matches!(k.stmt(l).map(|s| &s.kind), Some(StmtKind::Write { mode: WriteMode::Async, .. }));
    if let Some(c) = r.cases.iter().find(|c| is_copy(c.case.first)).filter(|_| r.scope != Scope::Copy) {
        d = d.with_note(format!(
            "{} is an asynchronous copy: it lands at the issuing thread's wait that covers its group \
             (`wait_group n` / `__pipeline_wait_prior(n)` leave the `n` most recent groups in flight; \
             a pipeline's `consumer_wait()` waits for its oldest stage not released), \
             and only a barrier after that wait orders it before another thread's access",
            cx.access_phrase(kind_of(c.case.first), c.case.first)
        ));
    }
    if let Some(n) = scope_note {
        d = d.with_note(n);
    }
    if let Some(c) = cure {
        d = d.with_note(c);
    }
    // A symbolic block size admits 2-D and 3-D blocks, where threads differing only in y or z
    // share `threadIdx.x`: the usual cause of a surprising race in a kernel written for 1-D.
    let beyond_x = |t: &[u64; 3]| t[1] != 0 || t[2] != 0;
    let witness_beyond_x = case0.witness.as_ref().is_some_and(|w| w.threads.iter().any(|t| beyond_x(&t.tid)));
    if k.geometry.block_dim.is_none() && witness_beyond_x {
        d = d.with_note(
            "help: the block size is unknown and the kernel reads threadIdx.y/z or blockDim.y/z (or \
             --all-dims is on), so 2-D and 3-D blocks are checked; if the kernel is launched with 1-D \
             blocks, say so with `--block-dim N` or a `//--blockDim=N` header line",
        );
    }
    k.locate(d)
}

/// The diagnostic of an access that may leave its array: the access, its witness thread, the
/// element it names in the source's words and the array's extent (`` `tile[17]` is outside
/// `tile` (17 elements) ``); a possible one when the solver could not decide.
pub fn out_of_bounds_diagnostic(cx: &Ctx, o: &OutOfBounds) -> Diagnostic {
    let k = cx.k;
    let name = array_name(k, &o.array);
    let view = k.source_arrays.get(&o.array);
    let extent = kpl::source_array::extent_text(view, &o.dims);
    let kind = kind_word(o.kind);
    let span = stmt_span(k, o.label);
    let Some(w) = &o.witness else {
        let why =
            o.undecided.clone().unwrap_or_else(|| "the solver could not decide this access".to_string());
        return k.locate(
            Diagnostic::error(
                format!(
                    "possible out-of-bounds {kind}: `{name}` ({extent}) may be indexed outside its bounds"
                ),
                span,
            )
            .with_label("the solver could not decide whether this access stays inside its array")
            .with_note(format!("reported as possible: {why}")),
        );
    };
    let text = |subscripts: &[u64]| match k.array(&o.array) {
        Some(decl) => kpl::source_array::subscripts_text(decl, view, subscripts),
        None => format!("{name}{}", subscripts.iter().map(|s| format!("[{s}]")).collect::<String>()),
    };
    // A wider access (a vector over narrower elements, `memcpy`) covers `width` elements from
    // its subscript on: the range it names, first to last, when they are different elements.
    let width = k.stmt(o.label).map_or(1, |s| s.width().get());
    let first = text(&w.subscripts);
    let mut last_subscripts = w.subscripts.clone();
    if let Some(l) = last_subscripts.last_mut() {
        *l = l.wrapping_add(u64::from(width) - 1) & 0xffff_ffff;
    }
    let last = text(&last_subscripts);
    let (element, is) =
        if width > 1 && last != first { (format!("{first}` … `{last}"), "reaches") } else { (first, "is") };
    let widen = |d: [u32; 3]| d.map(u64::from);
    let block_rank = rank(k.geometry.block_dim.map(widen).or(Some(w.block_dim)), &[w.thread.tid]);
    let grid_rank = rank(k.geometry.grid_dim.map(widen).or(Some(w.grid_dim)), &[w.thread.bid]);
    let many_blocks = k.geometry.grid_dim.is_none_or(|g| g.iter().product::<u32>() > 1);
    let thread = thread_text(&w.thread, (block_rank, grid_rank), many_blocks);
    let certainty = if w.index_inputs.is_empty() { "" } else { "possible " };
    let mut d = Diagnostic::error(
        format!("{certainty}out-of-bounds {kind}: `{element}` {is} outside `{name}` ({extent})"),
        span,
    )
    .with_label(format!("{kind} by {thread}"));
    let values =
        model_values(k, &w.params, [&w.block_dim, &w.grid_dim], (block_rank, grid_rank), many_blocks);
    if !values.is_empty() {
        d = d.with_note(format!("with {}", and_list(&values)));
    }
    let iterations: Vec<String> = w
        .thread
        .iterations
        .iter()
        .map(|(l, n)| format!("iteration {} of {}", n.saturating_add(1), cx.loop_phrase(*l)))
        .collect();
    if !iterations.is_empty() {
        d = d.with_note(format!("in {}", and_list(&iterations)));
    }
    if !w.index_inputs.is_empty() {
        d = d.with_note(arbitrary_index_note(cx, &w.index_inputs, IndexUse::Bounds));
    }
    d = d.with_note(
        "races are checked for accesses inside their arrays: a race that needs this access to leave its array is this finding",
    );
    // The usual cause under an unknown launch: a tile indexed by the thread id, sized for the
    // blocks the host launches, which the check cannot see.
    if k.geometry.block_dim.is_none() && w.thread.tid.iter().any(|t| *t > 0) {
        d = d.with_note(
            "help: the block size is unknown, so every block size is checked; if the launches use blocks for which this access stays inside its array, say so with `--block-dim N` or a `//--blockDim=N` header line",
        );
    }
    k.locate(d)
}

/// The rule of a thread touching its own asynchronous copy's destination before its wait.
pub const COPY_IN_FLIGHT_RULE: &str = "copy-in-flight";

/// A stable rule name per kind of finding (the JSON `rule` and SARIF `ruleId`).
pub fn race_rule(r: &Race) -> &'static str {
    match r.scope {
        Scope::Block => "data-race",
        Scope::Grid => "grid-race",
        Scope::Copy => COPY_IN_FLIGHT_RULE,
    }
}

/// The findings of a verdict in report order (races, benign races, divergent barriers,
/// out-of-bounds accesses), each with its rule name.
pub fn verdict_findings(cx: &Ctx, v: &Verdict) -> Vec<(&'static str, Diagnostic)> {
    let mut all = Vec::new();
    for r in &v.races {
        all.push((race_rule(r), race_diagnostic(cx, r, Severity::Error)));
    }
    for r in &v.benign {
        all.push(("benign-race", benign_diagnostic(cx, r)));
    }
    for dv in &v.divergences {
        all.push((divergence_rule(cx.k, dv), divergence_diagnostic(cx, dv)));
    }
    for o in &v.out_of_bounds {
        all.push((OUT_OF_BOUNDS_RULE, out_of_bounds_diagnostic(cx, o)));
    }
    all
}

/// The rule name of an access that may leave its array.
pub const OUT_OF_BOUNDS_RULE: &str = "out-of-bounds";

/// A benign write-write race as a warning.
pub fn benign_diagnostic(cx: &Ctx, r: &Race) -> Diagnostic {
    race_diagnostic(cx, r, Severity::Warning)
        .with_note("both threads write the same value (benign; an error under --strict)")
}

/// Writes the diagnostics of a verdict (stderr) and the kernel's summary line (stdout) to `out`.
pub fn report_verdict(out: &mut Out, loaded: &Loaded, cx: &Ctx, v: &Verdict) {
    let k = cx.k;
    let findings = verdict_findings(cx, v);
    if cx.explain && !findings.is_empty() && !out.explained_labels {
        out.explained_labels = true;
        out.err(format!("{LABELS_EXPLAINED}\n"));
    }
    for (_, d) in findings {
        out.err(d.render(&loaded.name, &loaded.source));
    }
    let mut summary = format!(
        "{}: kernel `{}`: {} race(s), {} divergent barrier(s), {} warning(s)",
        loaded.name,
        k.name,
        v.races.len(),
        v.divergences.len(),
        v.benign.len()
    );
    if !v.out_of_bounds.is_empty() {
        summary.push_str(&format!(", {} out-of-bounds access(es)", v.out_of_bounds.len()));
    }
    if v.is_correct() {
        out.out(format!("{summary} — correctly synchronized\n"));
    } else {
        out.out(format!("{summary}\n"));
    }
}

/// A location in the JSON document: 1-based lines, columns in characters, end exclusive.
pub fn location_json(source: &str, span: kpl::Span) -> Value {
    let (line, col) = line_col(source, span.start);
    let (end_line, end_col) = line_col(source, span.end.max(span.start));
    json!({"line": line, "col": col, "end_line": end_line, "end_col": end_col})
}

/// A finding (a diagnostic with its rule) as a JSON object (docs/json.md, `Finding`). `source`
/// is the input's text; a finding located in a header ([`Diagnostic::file`]) has its
/// positions in the header's text and says where it is: `file` (its path as printed) and
/// `included_from` (the `#include` lines, outermost first), keys only such findings have.
pub fn finding_json(rule: &str, d: &Diagnostic, source: &str) -> Value {
    let (_, source) = d.source_of("", source);
    let mut j = json!({
        "rule": rule,
        "severity": d.severity,
        "message": d.message,
        "location": d.span.map(|s| location_json(source, s)),
        "label": d.label,
        "related": d.secondary.iter().map(|(s, text)| json!({"location": location_json(source, *s), "message": text})).collect::<Vec<_>>(),
        "notes": d.notes,
    });
    if let Some(f) = &d.file {
        j["file"] = json!(f.name);
        j["included_from"] =
            f.included_from.iter().map(|(file, line)| json!({"file": file, "line": line})).collect();
    }
    j
}

/// The span of the statement owning block `b` (an if, else or while).
pub fn guard_span(k: &Kernel, b: kpl::Label) -> kpl::Span {
    if let Some(s) = k.stmt(b) {
        // A thread-dependent exit is its whole statement (`return;`); a guard its keyword.
        if k.flag_guards.contains(&b) {
            return s.span;
        }
        return kpl::Span::new(s.span.start, s.span.start.saturating_add(2).min(s.span.end));
    }
    let mut span = kpl::Span::default();
    k.walk(&mut |s| {
        if let StmtKind::If { els: Some(e), .. } = &s.kind {
            if e.label == b {
                span = s.span;
            }
        }
    });
    span
}

/// The source text of the guard of block `b` as a reader knows it: `if (tid < s)`,
/// `while (i < n)`, `else`, or the statement of a thread-dependent exit (`if (i >= n) return;`).
pub fn guard_text(k: &Kernel, source: &str, b: kpl::Label) -> String {
    let else_of = k.stmt(b).is_none();
    let span = guard_span(k, b);
    let Some(text) = source.get(span.start.min(source.len())..) else { return String::new() };
    if else_of {
        return "else".to_string();
    }
    let text = text.trim_start();
    let keyword = ["if", "while", "for"]
        .iter()
        .find(|kw| text.starts_with(**kw) && text[kw.len()..].trim_start().starts_with('('));
    if keyword.is_some() && !k.flag_guards.contains(&b) {
        // Up to the parenthesis that closes the condition.
        let mut depth = 0i32;
        for (i, c) in text.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return text[..=i].split_whitespace().collect::<Vec<_>>().join(" ");
                    }
                }
                _ => {}
            }
        }
    }
    let line = text.lines().next().unwrap_or_default().trim();
    line.chars().take(80).collect()
}

/// Whether `l` labels a `syncwarp` statement (a warp barrier) rather than a block barrier.
pub fn is_syncwarp(k: &Kernel, l: kpl::Label) -> bool {
    matches!(k.stmt(l).map(|s| &s.kind), Some(StmtKind::Syncwarp))
}

/// Whether `l` labels a `gridsync` statement (a grid barrier).
pub fn is_gridsync(k: &Kernel, l: kpl::Label) -> bool {
    matches!(k.stmt(l).map(|s| &s.kind), Some(StmtKind::Gridsync))
}

/// The diagnostic of a named barrier whose instances the threads that join it do not match:
/// what is wrong, and the two threads of the problem where it has them.
fn named_barrier_diagnostic(cx: &Ctx, dv: &crate::verify::Divergence, problem: &NamedProblem) -> Diagnostic {
    let k = cx.k;
    let (id, how) = match k.stmt(dv.barrier).map(|s| &s.kind) {
        Some(StmtKind::NamedBarrier { id, count, .. }) => (*id, *count),
        _ => (0, None),
    };
    // A libcu++ barrier object by its name, a PTX barrier by its id.
    let which = match k.barrier_names.get(&id) {
        Some(name) => format!("barrier `{name}`"),
        None => format!("named barrier {id}"),
    };
    let barrier_of = match how {
        Some(n) => format!("a barrier of {n} threads"),
        None => "a barrier of the whole block".to_string(),
    };
    let (message, label) = match problem {
        NamedProblem::Count { expected, found } => (
            format!("{which} waits for {expected} threads, but {found} threads of a block join it"),
            barrier_of.clone(),
        ),
        NamedProblem::NeverJoined => (
            format!("a thread waits at {which}, which no statement joins: it waits for ever"),
            "nothing arrives at this barrier".to_string(),
        ),
        NamedProblem::PartialWarp { warp } => (
            format!("{which} is joined by some threads of warp {warp} and not by others"),
            barrier_of.clone(),
        ),
        NamedProblem::Counts { first, second } => (
            format!("the statements of {which} wait for different numbers of threads ({first} and {second})"),
            "a different count".to_string(),
        ),
        NamedProblem::Unequal => (
            format!("threads may join {which} a different number of times"),
            "joined unequally often".to_string(),
        ),
        NamedProblem::Overrun => (
            format!("a thread may join {which} again before the instance it arrived at completed"),
            "may join the next instance early".to_string(),
        ),
        NamedProblem::Uncounted => (
            format!("possible named barrier mismatch: the threads that join {which} could not be counted"),
            barrier_of,
        ),
    };
    let mut d = Diagnostic::error(message, stmt_span(k, dv.barrier)).with_label(label);
    if let Some(t) = &dv.threads {
        let ranks = ranks(k, None, &[&t[0], &t[1]]);
        let (a, b) = (thread_text(&t[0], ranks, false), thread_text(&t[1], ranks, false));
        d = d.with_note(match problem {
            NamedProblem::Overrun => format!(
                "{a} arrives here without having waited at its previous arrival, and nothing orders {b}'s wait at that previous instance before it: its arrival may count toward the instance still open"
            ),
            _ => format!("{a} and {b} join it, a different number of times"),
        });
    }
    d = match problem {
        NamedProblem::Overrun => d.with_note("help: wait for the previous instance to complete before arriving again (a `bar.sync` of another barrier that the waiting threads arrive at after their wait), or give each stage its own barrier id"),
        // What was not established is the `undecided` note below.
        NamedProblem::Uncounted => d,
        _ => d.with_note("every instance of a named barrier must be joined by exactly the number of threads it waits for (`bar.sync id, n`: n threads; without n, the whole block): otherwise it completes early, or never"),
    };
    if let Some(why) = &dv.undecided {
        d = d.with_note(format!("reported as possible: {why}"));
    }
    k.locate(d)
}

/// The diagnostic of a divergent barrier: the barrier, the guard or exit, the witness threads.
pub fn divergence_diagnostic(cx: &Ctx, dv: &crate::verify::Divergence) -> Diagnostic {
    let k = cx.k;
    if let Some(problem) = &dv.named {
        return named_barrier_diagnostic(cx, dv, problem);
    }
    let warp = is_syncwarp(k, dv.barrier);
    let grid = is_gridsync(k, dv.barrier);
    let (message, label) = if warp {
        (
            "warp barrier may be reached by only some threads of a warp (warp barrier divergence)",
            "divergent warp barrier",
        )
    } else if grid {
        (
            "grid barrier may be reached by only some threads of the grid (grid barrier divergence)",
            "divergent grid barrier",
        )
    } else {
        ("barrier may be reached by only some threads of a block (barrier divergence)", "divergent barrier")
    };
    let mut d = Diagnostic::error(message, stmt_span(k, dv.barrier)).with_label(label);
    if k.flag_guards.contains(&dv.block) {
        d = d.with_secondary(guard_span(k, dv.block), "this exit depends on the thread").with_note(
            "threads that leave here (`return`, `break`, `continue`, `goto`) never reach the barrier",
        );
    } else {
        d = d.with_secondary(guard_span(k, dv.block), "this guard depends on the thread");
    }
    if let Some(t) = &dv.threads {
        let ranks = ranks(k, None, &[&t[0], &t[1]]);
        // Threads of different blocks, for a grid barrier.
        let blocks = t[0].bid != t[1].bid;
        d = d.with_note(format!(
            "{} reaches the barrier, {} does not",
            thread_text(&t[0], ranks, blocks),
            thread_text(&t[1], ranks, blocks)
        ));
    }
    if cx.explain {
        d = d.with_note(format!("labels: barrier {}, guard {}", cx.label(dv.barrier), cx.label(dv.block)));
    }
    // `fix` moves a barrier out of a conditional; an exit (`return;`) has no inside to leave.
    if !warp && !grid && cx.fix.is_none() && !k.flag_guards.contains(&dv.block) {
        d = d.with_note(format!(
            "help: `autosync fix` moves a barrier out of `{}` to where every thread reaches it (when the barrier is a statement of its own)",
            guard_text(k, cx.source, dv.block)
        ));
    }
    if let Some(why) = &dv.undecided {
        d = d.with_note(format!("reported as possible: {why}"));
    }
    k.locate(d)
}

/// The divergence's rule name: block or warp barrier.
pub fn divergence_rule(k: &Kernel, dv: &crate::verify::Divergence) -> &'static str {
    if dv.named.is_some() {
        "named-barrier-mismatch"
    } else if is_syncwarp(k, dv.barrier) {
        "warp-barrier-divergence"
    } else {
        "barrier-divergence"
    }
}

/// Why no barrier placement fixes a kernel, with the rule of the race or divergence.
pub fn unfixable_diagnostic(cx: &Ctx, u: &Unfixable) -> (&'static str, Diagnostic) {
    let k = cx.k;
    let rule = match (u.race(), u) {
        (Some(race), _) => race_rule(race),
        (None, Unfixable::DivergentBarrier { divergence }) => divergence_rule(k, divergence),
        (None, _) => OUT_OF_BOUNDS_RULE,
    };
    let d = match u {
        Unfixable::SelfRace { race } => race_diagnostic(cx, race, Severity::Error)
            .with_note("no barrier can fix this: two threads perform the same statement at the same element"),
        Unfixable::GridRace { race } => race_diagnostic(cx, race, Severity::Error)
            .with_note("no barrier can fix this: __syncthreads() orders threads of one block only"),
        Unfixable::InOneStatement { race } => {
            let d = race_diagnostic(cx, race, Severity::Error).with_note(
                "no barrier can go between these accesses: they are in one statement; split it so a barrier fits between the read and the write (`T v = a[j]; __syncwarp(); a[i] = v;`, or __syncthreads()) — `fix` does this where the statement is `a[i] op= …` (without `--no-split`)",
            );
            with_warp_sync_help(k, race, d)
        }
        Unfixable::CopyInFlight { race } => race_diagnostic(cx, race, Severity::Error).with_note(
            "no barrier can fix this alone: the copy is still in flight wherever a barrier would go; \
             help: wait for its group before the barrier that should order it (`cp.async.wait_group n` / \
             `__pipeline_wait_prior(n)` with `n` small enough, or `cp.async.wait_all`), then run `fix` again",
        ),
        Unfixable::NoValidPosition { race, blocks } => {
            let mut d = race_diagnostic(cx, race, Severity::Error)
                .with_note("no barrier can fix this: every position that would separate the accesses is inside a thread-dependent region (a barrier there diverges) or cannot take a statement");
            if cx.fix.is_some_and(|f| f.no_warp) {
                d = d.with_note("help: `__syncwarp()` may go where `__syncthreads()` cannot (inside code that whole warps run): run `fix` without `--no-warp`");
            }
            d = with_warp_sync_help(k, race, d);
            if !crate::kpl::named::ids(k).is_empty() {
                d = d.with_note("help: inside code that only some warps run (a warp role), order the accesses with the kernel's named barriers: a `bar.sync id, n` of that role's n threads between them, or a `bar.arrive` after the write and a `bar.sync` of the same barrier before the read");
            }
            for b in blocks {
                if k.flag_guards.contains(b) {
                    d = d
                        .with_secondary(guard_span(k, *b), "a thread-dependent exit: later barriers diverge");
                } else {
                    d = d.with_secondary(guard_span(k, *b), "thread-dependent guard");
                }
            }
            d
        }
        Unfixable::DivergentBarrier { divergence } if divergence.named.is_some() => divergence_diagnostic(cx, divergence)
            .with_note("named barriers are the kernel's own: `fix` never moves or removes one"),
        Unfixable::DivergentBarrier { divergence } if is_syncwarp(k, divergence.barrier) => {
            divergence_diagnostic(cx, divergence)
                .with_note("this warp barrier is in the kernel already and `fix` never moves or removes one")
        }
        Unfixable::DivergentBarrier { divergence } if is_gridsync(k, divergence.barrier) => {
            divergence_diagnostic(cx, divergence)
                .with_note("this grid barrier is in the kernel already and `fix` never moves or removes one")
        }
        Unfixable::DivergentBarrier { divergence } if cx.fix.is_some_and(|f| f.keep_barriers) => divergence_diagnostic(cx, divergence)
            .with_note("this barrier is in the kernel already and stays: --keep-barriers is on")
            .with_note("help: without `--keep-barriers`, `fix` moves it to where every thread reaches it"),
        Unfixable::DivergentBarrier { divergence } => divergence_diagnostic(cx, divergence).with_note(
            "this barrier is in the kernel already and stays: it is not a statement of its own (a macro or an expression)",
        ).with_note("help: write it as a statement of its own (`__syncthreads();`) so that `fix` can move it, or move it out of the thread-dependent code by hand"),
        Unfixable::Undecided { race } => race_diagnostic(cx, race, Severity::Error)
            .with_note("the solver did not decide this pair, so no barrier was placed for it"),
        Unfixable::OutOfBounds { access } => out_of_bounds_diagnostic(cx, access)
            .with_note("no barrier fixes this: the index has to stay inside the array"),
    };
    (rule, d)
}

/// A finding the written placement leaves (`Synthesis::Done::remaining`), reported after the diff.
pub fn remaining_diagnostic(cx: &Ctx, u: &Unfixable) -> (&'static str, Diagnostic) {
    let k = cx.k;
    match u {
        Unfixable::GridRace { race } => {
            let space = k.array(&race.array).map(|a| a.space.to_string()).unwrap_or_default();
            let d = race_diagnostic(cx, race, Severity::Error).with_note(format!(
                "not fixable by `__syncthreads()`: race between blocks on {space} array `{}` (give each block its own elements, or use atomics)",
                array_name(k, &race.array)
            ));
            (race_rule(race), d)
        }
        Unfixable::Undecided { race } => {
            let d = race_diagnostic(cx, race, Severity::Error).with_note(
                "left as it is: the barriers written separate every race the solver decided, not this pair",
            );
            (race_rule(race), d)
        }
        other => unfixable_diagnostic(cx, other),
    }
}

/// `d` with the `--warp-sync` help when the race's witness threads are in one warp.
fn with_warp_sync_help(k: &Kernel, race: &Race, d: Diagnostic) -> Diagnostic {
    match warp_sync_help(k, race.cases[0].witness.as_ref()) {
        Some(h) => d.with_note(h),
        None => d,
    }
}

/// The note of a race case in the same iteration of the loops around both accesses: those loops
/// named ("in the same iteration of the `for` loop at line 13"), or, with none, that no barrier
/// runs between the accesses.
fn same_iteration_note(
    cx: &Ctx,
    w: &crate::verify::Witness,
    first: (AccessKind, kpl::Label),
    second: (AccessKind, kpl::Label),
) -> String {
    let [a, b] = &w.threads;
    let shared: Vec<String> = a
        .iterations
        .iter()
        .filter(|(l, _)| b.iterations.iter().any(|(m, _)| m == l))
        .map(|(l, _)| cx.loop_phrase(*l))
        .collect();
    if shared.is_empty() {
        format!(
            "no barrier runs between {} and {}",
            cx.access_phrase(first.0, first.1),
            cx.access_phrase(second.0, second.1)
        )
    } else {
        format!("in the same iteration of {}, with no barrier between", and_list(&shared))
    }
}

/// `2nd`, `3rd`, `4th`, … (gaps of iterations are small).
fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
