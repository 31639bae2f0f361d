//! Printing a run over files as it goes: each file's human text as soon as it and every file
//! before it are done (input order), one JSON object per file under `--format jsonl`, one
//! document at the end under `json`/`sarif` — also when the run is interrupted (Ctrl-C, SIGTERM,
//! SIGHUP), then with the files finished so far and marked incomplete. On a terminal a progress
//! bar (files done, the file being analysed, elapsed time) is drawn on stderr.
//!
//! Each file of a run over several files is analysed in a worker process of its own (this
//! executable with `AUTOSYNC_WORKER_FILE` set): the solver's answers (which witness threads a
//! model names) depend on what else the process has done, so only a fresh process per file makes
//! the output independent of `-j` and the same as a run over that file alone; a crash (a stack
//! overflow on absurd input) also stays that file's.

use super::{Failure, WORKER_ENV};
use autosync::driver::output::{self, run_files, Event, FileResult, Work};
use autosync::driver::{sarif, Format, Plan};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::Value;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex};

/// Set when the process is told to stop; the run then reports what finished.
static CANCEL: AtomicBool = AtomicBool::new(false);
/// The signal that stopped the process (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Worker processes running now, so a stop ends them too.
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// The file a worker process analyses (its parent set [`WORKER_ENV`]).
pub fn worker_file() -> Option<PathBuf> {
    std::env::var_os(WORKER_ENV).map(PathBuf::from)
}

/// On SIGINT, SIGTERM or SIGHUP: stop the file writes (`autosync::patch::interrupt` removes
/// their temporary files), end the worker processes and cancel the run, which then reports
/// what finished and exits with 128 + the signal.
fn install_stop_handler() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // Without the handler a signal still ends the process; only the cleanup and the partial
    // report are lost.
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        let _ = std::thread::Builder::new().name("autosync-signals".into()).spawn(move || {
            if let Some(sig) = signals.forever().next() {
                autosync::patch::interrupt();
                SIGNAL.store(sig, Ordering::SeqCst);
                CANCEL.store(true, Ordering::SeqCst);
                let children = CHILDREN.lock().map(|c| c.clone()).unwrap_or_default();
                for pid in children {
                    // SAFETY: plain kill(2) of a worker process this process started.
                    unsafe {
                        libc::kill(pid as libc::pid_t, libc::SIGTERM);
                    }
                }
            }
        });
    }
}

/// Runs `work` over the plan's files and prints as described in the module; returns the exit
/// code (the worst file's, or 128 + the signal when interrupted).
pub fn run(plan: &Plan, command: &str, format: Format, jobs: usize, work: Work) -> Result<u8, Failure> {
    install_stop_handler();
    if worker_file().is_some() {
        return run_as_worker(plan, work);
    }
    let work: Work = if plan.files.len() > 1 { Arc::new(|f: &Path| in_worker(f)) } else { work };
    let bar = progress_bar(plan.files.len());
    let finished = run_files(&plan.files, jobs, work, &CANCEL, |event| match event {
        Event::Started { path, .. } => bar.set_message(path.display().to_string()),
        Event::Finished { result, .. } => {
            bar.inc(1);
            match format {
                Format::Human => bar.suspend(|| result.human.emit(false)),
                Format::Jsonl => bar.suspend(|| {
                    result.human.emit(true);
                    print_line(&result.doc);
                }),
                Format::Json | Format::Sarif => bar.suspend(|| result.human.emit(true)),
            }
        }
    })?;
    bar.finish_and_clear();
    let incomplete = finished.cancelled;
    let tally = finished.tally;
    match format {
        Format::Human => {
            if plan.many || incomplete {
                eprintln!(
                    "{}{} in {:.2} s",
                    if incomplete { "interrupted: " } else { "" },
                    output::summary_line(command, &tally),
                    finished.elapsed.as_secs_f64()
                );
            }
        }
        Format::Jsonl => print_line(&serde_json::json!({
            "summary": tally.to_json(),
            "command": command,
            "incomplete": incomplete,
        })),
        Format::Json => {
            let docs = finished.results.into_iter().map(|r| r.doc).collect();
            print_json(&output::document(command, docs, Some(tally), None, incomplete));
        }
        Format::Sarif => {
            let docs: Vec<Value> = finished.results.into_iter().map(|r| r.doc).collect();
            print_json(&sarif::log(command, &docs, None, incomplete));
        }
    }
    if incomplete {
        let sig = SIGNAL.load(Ordering::SeqCst);
        return Ok(u8::try_from(128 + sig).unwrap_or(130));
    }
    Ok(finished.worst)
}

/// A worker process: analyses its one file and writes the result for the parent on stdout.
fn run_as_worker(plan: &Plan, work: Work) -> Result<u8, Failure> {
    let finished = run_files(&plan.files, 1, work, &CANCEL, |_| {})?;
    if finished.cancelled {
        let sig = SIGNAL.load(Ordering::SeqCst);
        return Ok(u8::try_from(128 + sig).unwrap_or(130));
    }
    if let Some(result) = finished.results.first() {
        let mut stdout = std::io::stdout().lock();
        serde_json::to_writer(&mut stdout, result)
            .map_err(|e| Failure::Usage(format!("worker: cannot write its result: {e}")))?;
    }
    Ok(0)
}

/// Prints a JSON value, pretty, on stdout.
pub fn print_json(v: &Value) {
    let mut stdout = std::io::stdout().lock();
    if serde_json::to_writer_pretty(&mut stdout, v).is_ok() {
        let _ = writeln!(stdout);
    }
}

/// Prints a JSON value on one line of stdout (JSON Lines), flushed.
fn print_line(v: &Value) {
    let mut stdout = std::io::stdout().lock();
    if serde_json::to_writer(&mut stdout, v).is_ok() {
        let _ = writeln!(stdout);
        let _ = stdout.flush();
    }
}

/// A bar on stderr counting finished files and naming the one being analysed, drawn only when
/// stderr is a terminal and there is more than one file (logs and CI output stay clean).
fn progress_bar(files: usize) -> ProgressBar {
    if files < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} files  {elapsed}  {wide_msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
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
    let child = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(WORKER_ENV, file)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let child = match child {
        Ok(c) => c,
        Err(e) => return failed(format!("cannot start a worker process: {e}")),
    };
    let pid = child.id();
    if let Ok(mut c) = CHILDREN.lock() {
        c.push(pid);
    }
    let output = child.wait_with_output();
    if let Ok(mut c) = CHILDREN.lock() {
        c.retain(|p| *p != pid);
    }
    let output = match output {
        Ok(o) => o,
        Err(e) => return failed(format!("cannot run a worker process: {e}")),
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
