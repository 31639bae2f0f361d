//! The analysis thread: jobs (a document version to analyse, not before a due time) come in on a
//! channel, results go out on another; the main loop never waits for an analysis.
//!
//! Guarantees: of the jobs of one document only the newest version runs (an older one still
//! waiting is replaced; debouncing is a due time in the future, so typing replaces the job
//! before it starts); a running analysis whose version became outdated stops before its
//! synthesis and its result is dropped, never published; a panic inside an analysis is that
//! document's diagnostic, not the server's end.

use super::analysis::{self, Analysis, Settings};
use super::position::Encoding;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use lsp_types::Uri;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A document version to analyse.
#[derive(Clone, Debug)]
pub struct Job {
    /// The document.
    pub uri: Uri,
    /// Its version.
    pub version: i32,
    /// The file it is the buffer of.
    pub path: PathBuf,
    /// The buffer's text at `version`.
    pub text: Arc<str>,
    /// Not before this instant (now for open and save, a short delay for typing).
    pub due: Instant,
}

/// A finished analysis of a version that was current when it finished.
#[derive(Debug)]
pub struct Done {
    /// The document.
    pub uri: Uri,
    /// The version analysed.
    pub version: i32,
    /// What it found.
    pub analysis: Analysis,
}

/// The newest version of each open document, shared with the worker: how it knows a job is
/// outdated.
// Keyed by the URI's text: `Uri` caches parts of itself in cells, so it is no map key.
type Latest = Arc<Mutex<HashMap<String, i32>>>;

/// The handle of the analysis thread; dropping it ends the thread after its current analysis.
pub struct Worker {
    jobs: Sender<Job>,
    latest: Latest,
}

impl Worker {
    /// Starts the thread (with the stack the library's passes need), sending each analysis of a
    /// still-current version to `done`.
    pub fn spawn(settings: Settings, encoding: Encoding, done: Sender<Done>) -> std::io::Result<Worker> {
        let (jobs, rx) = crossbeam_channel::unbounded();
        let latest: Latest = Arc::default();
        let shared = latest.clone();
        std::thread::Builder::new()
            .name("lsp-analysis".into())
            .stack_size(crate::limits::WORKER_STACK_BYTES)
            .spawn(move || run(&rx, &done, &shared, &settings, encoding))?;
        Ok(Worker { jobs, latest })
    }

    /// Queues `job`; it outdates every older version of its document.
    pub fn submit(&self, job: Job) {
        if let Ok(mut latest) = self.latest.lock() {
            latest.insert(job.uri.as_str().to_string(), job.version);
        }
        // The thread ends only when this handle is dropped.
        let _ = self.jobs.send(job);
    }

    /// The document was closed: its queued and running analyses are outdated.
    pub fn forget(&self, uri: &Uri) {
        if let Ok(mut latest) = self.latest.lock() {
            latest.remove(uri.as_str());
        }
    }
}

fn is_current(latest: &Latest, uri: &Uri, version: i32) -> bool {
    latest.lock().map(|l| l.get(uri.as_str()) == Some(&version)).unwrap_or(false)
}

fn run(jobs: &Receiver<Job>, done: &Sender<Done>, latest: &Latest, settings: &Settings, encoding: Encoding) {
    let mut pending: HashMap<String, Job> = HashMap::new();
    loop {
        // Wait for a job, or until the earliest pending one is due.
        let next_due = pending.values().map(|j| j.due).min();
        let received = match next_due {
            None => jobs.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(due) => jobs.recv_deadline(due),
        };
        match received {
            Ok(job) => {
                queue(&mut pending, job);
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
            Err(RecvTimeoutError::Timeout) => {}
        }
        let now = Instant::now();
        let Some(uri) = pending
            .values()
            .filter(|j| j.due <= now)
            .min_by_key(|j| j.due)
            .map(|j| j.uri.as_str().to_string())
        else {
            continue;
        };
        let Some(job) = pending.remove(&uri) else { continue };
        if !is_current(latest, &job.uri, job.version) {
            continue;
        }
        let outdated = || !is_current(latest, &job.uri, job.version);
        let analysed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            analysis::analyse(&job.path, &job.text, settings, encoding, &job.uri, &outdated)
        }));
        let analysis = analysed.unwrap_or_else(|panic| crashed(panic.as_ref()));
        if outdated() {
            continue;
        }
        if done.send(Done { uri: job.uri, version: job.version, analysis }).is_err() {
            return;
        }
    }
}

/// Keeps the newest job per document; a job for the same version (a save after the change it
/// follows) keeps the earlier due time.
fn queue(pending: &mut HashMap<String, Job>, job: Job) {
    match pending.get_mut(job.uri.as_str()) {
        Some(old) if old.version > job.version => {}
        Some(old) if old.version == job.version => old.due = old.due.min(job.due),
        _ => {
            pending.insert(job.uri.as_str().to_string(), job);
        }
    }
}

/// The diagnostic of an analysis that panicked (a bug of autosync, reported where the user looks).
fn crashed(panic: &(dyn std::any::Any + Send)) -> Analysis {
    let why = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    Analysis {
        diagnostics: vec![lsp_types::Diagnostic {
            severity: Some(lsp_types::DiagnosticSeverity::ERROR),
            code: Some(lsp_types::NumberOrString::String("internal-error".into())),
            source: Some(analysis::SOURCE.into()),
            message: format!("autosync failed on this file (a bug; please report it): {why}"),
            ..lsp_types::Diagnostic::default()
        }],
        fixes: vec![None],
        ..Analysis::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;
    use std::time::Duration;

    fn job(version: i32, due: Instant) -> Job {
        let uri = Uri::from_str("file:///k.cu").unwrap_or_else(|_| unreachable!());
        Job { uri, version, path: PathBuf::from("/k.cu"), text: Arc::from(""), due }
    }

    #[test]
    fn the_newest_version_wins_and_a_save_keeps_the_earlier_due_time() {
        let now = Instant::now();
        let later = now + Duration::from_millis(300);
        let mut pending = HashMap::new();
        queue(&mut pending, job(1, now));
        queue(&mut pending, job(2, later));
        queue(&mut pending, job(1, now));
        assert_eq!(pending.len(), 1);
        let j = pending.values().next().map(|j| (j.version, j.due));
        assert_eq!(j, Some((2, later)));
        queue(&mut pending, job(2, now));
        let j = pending.values().next().map(|j| (j.version, j.due));
        assert_eq!(j, Some((2, now)));
    }
}
