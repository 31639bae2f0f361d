//! Output of commands over many files: each file's text is buffered (so files processed in
//! parallel print in input order, byte for byte what a run over one file prints), the files run on
//! a pool of `-j` threads, and a one-line summary closes a run over several files.

use super::{Failure, Format, EXIT_BAD_INPUT};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Text for stdout and stderr in the order it was produced.
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct Out {
    chunks: Vec<(bool, String)>,
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
    /// Drops the stdout text (machine formats own stdout; diagnostics still go to stderr).
    pub fn stderr_only(mut self) -> Out {
        self.chunks.retain(|(to_err, _)| *to_err);
        self
    }
    /// Writes the buffered text to the process's stdout and stderr, in order.
    pub fn emit(self) {
        let (mut stdout, mut stderr) = (std::io::stdout().lock(), std::io::stderr().lock());
        for (to_err, text) in self.chunks {
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
    /// Kernels without a race or divergent barrier (`check`) or left correctly synchronized
    /// (`fix`).
    pub clean: usize,
    /// Races reported (possible ones included).
    pub races: usize,
    /// Divergent barriers reported.
    pub divergences: usize,
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
        let mut human = Out::default();
        let error = error_json(Some(name), &failure);
        match failure {
            Failure::Input { file, source, diag } => human.err(diag.render(&file, &source)),
            Failure::Usage(msg) => human.err(format!("error: {msg}\n")),
        }
        FileResult {
            code: EXIT_BAD_INPUT,
            human,
            doc: json!({"file": name, "status": "error", "exit_code": EXIT_BAD_INPUT, "kernels": [], "error": error}),
            tally: Tally { files: 1, unsupported: 1, ..Tally::default() },
        }
    }
}

/// The `error` object of the JSON document: where (when known) and what.
pub fn error_json(file: Option<&str>, failure: &Failure) -> Value {
    match failure {
        Failure::Input { file, source, diag } => {
            let (line, col) = match diag.span {
                Some(s) => {
                    let (l, c) = autosync::diag::line_col(source, s.start);
                    (json!(l), json!(c))
                }
                None => (Value::Null, Value::Null),
            };
            json!({"file": file, "line": line, "col": col, "message": diag.message, "notes": diag.notes})
        }
        Failure::Usage(msg) => {
            json!({"file": file, "line": null, "col": null, "message": msg, "notes": []})
        }
    }
}

/// How a run over files reports.
pub struct RunShape<'a> {
    /// `check` or `fix`: the JSON document's `command`.
    pub command: &'a str,
    /// Output format.
    pub format: Format,
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// Print the summary line (runs over several files or a directory).
    pub summary: bool,
    /// This process is a worker for one file of a parent's run (`AUTOSYNC_WORKER_FILE`).
    pub worker: bool,
}

/// The status word of a file's exit code in the JSON document.
pub fn status_word(code: u8) -> &'static str {
    match code {
        0 => "ok",
        1 => "findings",
        _ => "error",
    }
}

/// Runs `work` on every file on a pool of `shape.jobs` threads, prints each file's output in input
/// order as soon as the files before it are done (human format) or one document at the end
/// (JSON, SARIF), and returns the worst exit code.
pub fn run_files<F>(files: &[PathBuf], shape: &RunShape, work: F) -> Result<u8, Failure>
where
    F: Fn(&Path) -> FileResult + Sync,
{
    use rayon::prelude::*;
    if shape.worker {
        // The parent reads one FileResult back; a worker prints nothing else.
        if let Some(file) = files.first() {
            let result = work(file);
            let mut stdout = std::io::stdout().lock();
            serde_json::to_writer(&mut stdout, &result)
                .map_err(|e| Failure::Usage(format!("worker: cannot write its result: {e}")))?;
        }
        return Ok(0);
    }
    // Each file of a run over several files is analysed in a process of its own: the solver's
    // answers (which witness threads a model names) depend on what else the process has done, so
    // only a fresh process per file makes the output independent of `-j` and the same as a run
    // over that file alone; a crash (a stack overflow on absurd input) also stays that file's.
    let isolated = files.len() > 1;
    let work = |f: &Path| if isolated { in_worker(f) } else { work(f) };
    let started = std::time::Instant::now();
    // The front ends recurse over the syntax tree; worker threads get the main thread's usual
    // stack size rather than rayon's smaller default.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(shape.jobs)
        .stack_size(autosync::limits::WORKER_STACK_BYTES)
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start worker threads: {e}")))?;
    let bar = progress_bar(files.len());
    let (tx, rx) = std::sync::mpsc::channel::<(usize, FileResult)>();
    let mut results: Vec<Option<FileResult>> = Vec::new();
    results.resize_with(files.len(), || None);
    std::thread::scope(|s| {
        let work = &work;
        s.spawn(move || {
            pool.install(|| {
                files.par_iter().enumerate().for_each_with(tx, |tx, (i, f)| {
                    let _ = tx.send((i, work(f)));
                })
            })
        });
        let mut pending = BTreeMap::new();
        let mut next = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(mut r) = pending.remove(&next) {
                bar.inc(1);
                let human = std::mem::take(&mut r.human);
                if shape.format == Format::Human {
                    bar.suspend(|| human.emit());
                } else {
                    human.stderr_only().emit();
                }
                results[next] = Some(r);
                next += 1;
            }
        }
    });
    bar.finish_and_clear();
    let results: Vec<FileResult> = results.into_iter().flatten().collect();
    let mut tally = Tally::default();
    let mut worst = 0;
    for r in &results {
        tally.add(&r.tally);
        worst = worst.max(r.code);
    }
    match shape.format {
        Format::Human => {
            if shape.summary {
                eprintln!(
                    "{} in {:.2} s",
                    summary_line(shape.command, &tally),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        Format::Json => {
            let doc =
                document(shape.command, results.into_iter().map(|r| r.doc).collect(), Some(tally), None);
            print_json(&doc);
        }
        Format::Sarif => {
            let docs: Vec<Value> = results.into_iter().map(|r| r.doc).collect();
            print_json(&super::sarif::log(shape.command, &docs, None));
        }
    }
    Ok(worst)
}

/// The summary line without its time: `12 file(s), 20 kernel(s): 15 clean, 3 race(s), …`.
pub fn summary_line(command: &str, t: &Tally) -> String {
    format!(
        "{command}: {} file(s), {} kernel(s): {} clean, {} race(s), {} divergent barrier(s), {} file(s) unsupported or bad input",
        t.files, t.kernels, t.clean, t.races, t.divergences, t.unsupported
    )
}

/// The one JSON document of a run (see docs/json.md).
pub fn document(command: &str, files: Vec<Value>, tally: Option<Tally>, error: Option<Value>) -> Value {
    let mut doc = json!({
        "version": JSON_VERSION,
        "tool": {"name": "autosync", "version": env!("CARGO_PKG_VERSION")},
        "command": command,
        "files": files,
        "summary": tally.unwrap_or_default().to_json(),
    });
    if let (Some(e), Some(map)) = (error, doc.as_object_mut()) {
        map.insert("error".into(), e);
    }
    doc
}

/// The version of the JSON document's shape; a change that renames or removes a field bumps it.
pub const JSON_VERSION: u32 = 1;

/// Prints a JSON value, pretty, on stdout.
pub fn print_json(v: &Value) {
    let mut stdout = std::io::stdout().lock();
    if serde_json::to_writer_pretty(&mut stdout, v).is_ok() {
        let _ = writeln!(stdout);
    }
}

/// A bar on stderr counting finished files, drawn only when stderr is a terminal and there is more
/// than one file (logs and CI output stay clean).
fn progress_bar(files: usize) -> ProgressBar {
    if files < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} files  {elapsed}") {
        bar.set_style(style);
    }
    bar
}

/// Runs this executable on one file with the same command line and `AUTOSYNC_WORKER_FILE=FILE`
/// and reads back its result; a worker that dies or answers garbage is that file's error.
fn in_worker(file: &Path) -> FileResult {
    let name = file.display().to_string();
    let failed = |why: String| FileResult::failed(&name, Failure::Usage(format!("{name}: {why}")));
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return failed(format!("cannot find the autosync executable to run a worker: {e}")),
    };
    let output = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(super::WORKER_ENV, file)
        .stdin(std::process::Stdio::null())
        .output();
    let output = match output {
        Ok(o) => o,
        Err(e) => return failed(format!("cannot start a worker process: {e}")),
    };
    match serde_json::from_slice::<FileResult>(&output.stdout) {
        Ok(r) if output.status.success() => r,
        _ => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            failed(format!(
                "the analysis of this file failed ({}){}{}",
                output.status,
                if tail.is_empty() { "" } else { ": " },
                tail.join("\n")
            ))
        }
    }
}
