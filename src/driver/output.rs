//! A run over many files: each file's text is buffered (so files processed in parallel print in
//! input order, byte for byte what a run over one file prints), the files run on a pool of `-j`
//! threads ([`run_files`]), and the counts of the run ([`Tally`]) feed the summary line and the
//! JSON document.

use super::{Failure, EXIT_BAD_INPUT};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Text for stdout and stderr in the order it was produced.
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct Out {
    chunks: Vec<(bool, String)>,
    /// `--explain` said what KPL labels are (once per file).
    #[serde(default)]
    pub explained_labels: bool,
}

impl Out {
    /// Appends text for stdout.
    pub fn out(&mut self, text: impl Into<String>) {
        self.chunks.push((false, text.into()));
    }
    /// Appends text for stderr.
    pub fn err(&mut self, text: impl Into<String>) {
        self.chunks.push((true, text.into()));
    }
    /// Appends everything `other` holds.
    pub fn append(&mut self, other: Out) {
        self.chunks.extend(other.chunks);
    }
    /// Writes the buffered text to the process's stdout and stderr, in order; with
    /// `stderr_only`, the stdout text is dropped (machine formats own stdout; diagnostics still go
    /// to stderr).
    pub fn emit(&self, stderr_only: bool) {
        let (mut stdout, mut stderr) = (std::io::stdout().lock(), std::io::stderr().lock());
        for (to_err, text) in &self.chunks {
            let to_err = *to_err;
            if stderr_only && !to_err {
                continue;
            }
            // A closed pipe (`| head`) is not worth a panic; the exit code still tells.
            let _ = if to_err {
                stdout.flush().and_then(|_| stderr.write_all(text.as_bytes()))
            } else {
                stderr.flush().and_then(|_| stdout.write_all(text.as_bytes()))
            };
        }
        let _ = stdout.flush();
        let _ = stderr.flush();
    }
}

/// Counts over the files of a run, for the summary line and the JSON `summary`.
#[derive(Clone, Copy, Default, Debug, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Files processed.
    pub files: usize,
    /// Kernels loaded.
    pub kernels: usize,
    /// Kernels without a race, divergent barrier or out-of-bounds access (`check`) or left
    /// without one (`fix`).
    pub clean: usize,
    /// Races reported (possible ones included).
    pub races: usize,
    /// Divergent barriers reported.
    pub divergences: usize,
    /// Accesses that may leave an array of known size (possible ones included).
    #[serde(default)]
    pub out_of_bounds: usize,
    /// Kernels with a question the verifier could not decide (its budget ran out, or the solver
    /// gave up on a query): reported as possible findings.
    #[serde(default)]
    pub undecided: usize,
    /// Files that could not be analysed (bad input, an unsupported construct, unreadable).
    pub unsupported: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.files += o.files;
        self.kernels += o.kernels;
        self.clean += o.clean;
        self.races += o.races;
        self.divergences += o.divergences;
        self.out_of_bounds += o.out_of_bounds;
        self.undecided += o.undecided;
        self.unsupported += o.unsupported;
    }
    /// The JSON `summary` object (no time: documents of equal runs are equal).
    pub fn to_json(self) -> Value {
        json!({
            "files": self.files,
            "kernels": self.kernels,
            "clean": self.clean,
            "races": self.races,
            "divergences": self.divergences,
            "out_of_bounds": self.out_of_bounds,
            "undecided": self.undecided,
            "unsupported": self.unsupported,
        })
    }
}

/// What one file contributed to a run.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct FileResult {
    /// 0, 1 (findings) or 2 (bad input).
    pub code: u8,
    /// The human-format text.
    pub human: Out,
    /// The file's object in the JSON document (`files[i]`).
    pub doc: Value,
    /// Its counts.
    pub tally: Tally,
}

impl FileResult {
    /// The result of a file that failed: the diagnostic in `human`, the `error` object in `doc`.
    pub fn failed(name: &str, failure: Failure) -> FileResult {
        let failure = failure.reported();
        let mut human = Out::default();
        let error = error_json(Some(name), &failure);
        match failure {
            Failure::Input { file, source, diag } => human.err(diag.render(&file, &source)),
            Failure::Usage(msg) => human.err(format!("error: {msg}\n")),
            // `reported` unwraps it.
            Failure::NoKernel(_) => {}
        }
        FileResult {
            code: EXIT_BAD_INPUT,
            human,
            doc: json!({"file": name, "status": "error", "exit_code": EXIT_BAD_INPUT, "kernels": [], "error": error}),
            tally: Tally { files: 1, unsupported: 1, ..Tally::default() },
        }
    }

    /// A file of a run over several that has no kernel: a note, not an error (exit code 0).
    pub fn skipped(name: &str, why: &str) -> FileResult {
        let mut human = Out::default();
        human.err(format!("note: {why}; skipped\n"));
        FileResult {
            code: 0,
            human,
            doc: json!({"file": name, "status": "ok", "exit_code": 0, "kernels": [], "note": why}),
            tally: Tally { files: 1, ..Tally::default() },
        }
    }
}

/// The `error` object of the JSON document: where (when known) and what.
pub fn error_json(file: Option<&str>, failure: &Failure) -> Value {
    match failure {
        Failure::Input { file, source, diag } => diagnostic_json(file, source, diag),
        Failure::Usage(msg) => {
            json!({"file": file, "line": null, "col": null, "message": msg, "notes": [], "related": []})
        }
        Failure::NoKernel(f) => error_json(file, f),
    }
}

/// A located error as the JSON `Error` object; `related` holds its secondary locations (the
/// other unsupported constructs of a refused kernel).
pub fn diagnostic_json(file: &str, source: &str, diag: &crate::diag::Diagnostic) -> Value {
    let (file, source) = diag.source_of(file, source);
    let at = |s: Option<crate::kpl::Span>| match s {
        Some(s) => {
            let (l, c) = crate::diag::line_col(source, s.start);
            (json!(l), json!(c))
        }
        None => (Value::Null, Value::Null),
    };
    let (line, col) = at(diag.span);
    let related: Vec<Value> = diag
        .secondary
        .iter()
        .map(|(s, m)| {
            let (line, col) = at(Some(*s));
            json!({"line": line, "col": col, "message": m})
        })
        .collect();
    json!({"file": file, "line": line, "col": col, "message": diag.message, "notes": diag.notes, "related": related})
}

/// The status word of a file's exit code in the JSON document.
pub fn status_word(code: u8) -> &'static str {
    match code {
        0 => "ok",
        1 => "findings",
        _ => "error",
    }
}

/// What a run over files reports as it goes, in this order per file: [`Event::Started`] when a
/// worker picks the file up (any order), [`Event::Finished`] in input order, as soon as the file
/// and every file before it are done.
pub enum Event<'a> {
    /// File `index` of the run is being analysed.
    Started { index: usize, path: &'a Path },
    /// File `index` is done; every file before it has been reported.
    Finished { index: usize, result: &'a FileResult },
}

/// The outcome of [`run_files`].
pub struct Finished {
    /// The results of the files reported finished, in input order (a prefix of the files when
    /// the run was cancelled).
    pub results: Vec<FileResult>,
    /// The counts over `results`.
    pub tally: Tally,
    /// The worst exit code over `results`.
    pub worst: u8,
    /// The run was cancelled before every file was done.
    pub cancelled: bool,
    /// Wall time of the run.
    pub elapsed: std::time::Duration,
}

/// The work of one file: a pure function of the path (its failures are in the result).
pub type Work = Arc<dyn Fn(&Path) -> FileResult + Send + Sync>;

/// Runs `work` on every file on a pool of `jobs` threads (0: one per core) and reports through
/// `observe` (see [`Event`]).
///
/// Guarantees: results are handed back in input order whatever `jobs` is, each file's as soon
/// as it and all earlier files are done; one file's failure or panic-free error never stops
/// the others; when `cancel` becomes true the run returns within about 50 ms with the files
/// finished so far (files not started are skipped; files in progress are abandoned, their
/// threads left to end with the process). The calling thread only waits and reports, so it
/// stays responsive while a file is being analysed.
pub fn run_files(
    files: &[PathBuf],
    jobs: usize,
    work: Work,
    cancel: &'static AtomicBool,
    mut observe: impl FnMut(Event<'_>),
) -> Result<Finished, Failure> {
    use rayon::prelude::*;
    let started = std::time::Instant::now();
    // The front ends recurse over the syntax tree; worker threads get the main thread's usual
    // stack size rather than rayon's smaller default.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(crate::limits::WORKER_STACK_BYTES)
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start worker threads: {e}")))?;
    enum Msg {
        Started(usize),
        Done(usize, FileResult),
    }
    let (tx, rx) = std::sync::mpsc::channel::<Msg>();
    let owned: Vec<PathBuf> = files.to_vec();
    std::thread::Builder::new()
        .name("autosync-run".into())
        .spawn(move || {
            pool.install(|| {
                owned.par_iter().enumerate().for_each_with(tx, |tx, (i, f)| {
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    let _ = tx.send(Msg::Started(i));
                    let _ = tx.send(Msg::Done(i, work(f)));
                })
            })
        })
        .map_err(|e| Failure::Usage(format!("cannot start worker threads: {e}")))?;
    let mut pending = BTreeMap::new();
    let mut results: Vec<FileResult> = Vec::with_capacity(files.len());
    let mut cancelled = false;
    while results.len() < files.len() {
        if cancel.load(Ordering::Relaxed) {
            cancelled = true;
            break;
        }
        let msg = match rx.recv_timeout(std::time::Duration::from_millis(50)) {
            Ok(m) => m,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            // The pool ended early: only a cancellation skips files.
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                cancelled = true;
                break;
            }
        };
        match msg {
            Msg::Started(i) => {
                if let Some(path) = files.get(i) {
                    observe(Event::Started { index: i, path });
                }
            }
            // A file that ends after the cancellation (its worker killed by it) is not a result.
            Msg::Done(..) if cancel.load(Ordering::SeqCst) => {
                cancelled = true;
                break;
            }
            Msg::Done(i, r) => {
                pending.insert(i, r);
                while let Some(r) = pending.remove(&results.len()) {
                    observe(Event::Finished { index: results.len(), result: &r });
                    results.push(r);
                }
            }
        }
    }
    let mut tally = Tally::default();
    let mut worst = 0;
    for r in &results {
        tally.add(&r.tally);
        worst = worst.max(r.code);
    }
    Ok(Finished { results, tally, worst, cancelled, elapsed: started.elapsed() })
}

/// The summary line without its time: `12 file(s), 20 kernel(s): 15 clean, 3 race(s), …`.
pub fn summary_line(command: &str, t: &Tally) -> String {
    format!(
        "{command}: {} file(s), {} kernel(s): {} clean, {} race(s), {} divergent barrier(s), {} out-of-bounds access(es), {} undecided, {} file(s) unsupported or bad input",
        t.files, t.kernels, t.clean, t.races, t.divergences, t.out_of_bounds, t.undecided, t.unsupported
    )
}

/// The one JSON document of a run (see docs/json.md); `incomplete` when the run was interrupted
/// (the document then holds the files finished so far).
pub fn document(
    command: &str,
    files: Vec<Value>,
    tally: Option<Tally>,
    error: Option<Value>,
    incomplete: bool,
) -> Value {
    let mut doc = json!({
        "version": JSON_VERSION,
        "tool": {"name": "autosync", "version": env!("CARGO_PKG_VERSION")},
        "command": command,
        "files": files,
        "summary": tally.unwrap_or_default().to_json(),
    });
    if let Some(map) = doc.as_object_mut() {
        if let Some(e) = error {
            map.insert("error".into(), e);
        }
        if incomplete {
            map.insert("incomplete".into(), Value::Bool(true));
        }
    }
    doc
}

/// The version of the JSON document's shape; a change that renames or removes a field bumps it.
pub const JSON_VERSION: u32 = 1;
