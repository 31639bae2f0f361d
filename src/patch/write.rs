//! Writing a fixed file without damaging anything around it.
//!
//! # Guarantees of [`write_fixed`]
//! - The input file is re-checked just before the new contents replace anything: if its size,
//!   modification time or bytes differ from what was read, nothing is written
//!   ([`PatchError::Changed`]). (A write between that check and the rename is not detected; the
//!   window is one system call.)
//! - A symlink is followed: the real file is replaced, the link stays a link.
//! - A regular file is replaced atomically (temporary file in its directory, flushed, renamed) and
//!   keeps its mode and owner; when the owner cannot be kept (not root) or the file has several
//!   hard links, it is rewritten in place instead, which keeps both (not atomic: a crash in the
//!   middle of that write can leave it partly written).
//! - A file without write permission (no write bit, or `access(W_OK)` fails) is refused unless
//!   `force`.
//! - `-o` onto something that is not a regular file: a directory is refused; a device, FIFO or
//!   socket, and any path under `/dev` or `/proc` (`-o /dev/stdout`, `-o /dev/null`), is written
//!   into (appending), never renamed over.
//! - The temporary file is removed on every error path (drop) and by [`interrupt`], which the
//!   program calls when it is told to stop (SIGINT, SIGTERM, SIGHUP): it deletes the live
//!   temporary files and makes every later or unfinished write fail with
//!   [`PatchError::Interrupted`] without touching its target. The library installs no signal
//!   handler and never exits the process.

use super::PatchError;
use crate::source::Input;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files that exist right now and must not survive an interruption, and whether the
/// program was interrupted (no write may start or finish after that).
static LIVE: Mutex<(Vec<PathBuf>, bool)> = Mutex::new((Vec::new(), false));

/// How [`write_fixed`] writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Write a file without write permission anyway (its mode stays).
    pub force: bool,
    /// Wait this long after the temporary file is written and before the final check and
    /// rename: lets tests edit the input or send a signal inside that window.
    pub pause_before_rename: Option<std::time::Duration>,
}

fn live() -> std::sync::MutexGuard<'static, (Vec<PathBuf>, bool)> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Stops every write of the process: deletes the temporary files that exist now and makes
/// every write in progress or to come fail with [`PatchError::Interrupted`], its target
/// untouched. For a signal handler thread (it takes a lock, so not for an async signal
/// handler itself). Idempotent.
pub fn interrupt() {
    let mut registry = live();
    for p in registry.0.iter() {
        let _ = std::fs::remove_file(p);
    }
    registry.0.clear();
    registry.1 = true;
}

/// Writes `contents`, the fixed version of `input` (read from `input_path`), to `output` or, when
/// `output` is `None`, over the input file (see the module guarantees).
pub fn write_fixed(
    input_path: &Path,
    output: Option<&Path>,
    input: &Input,
    contents: &[u8],
    opts: &WriteOptions,
) -> Result<(), PatchError> {
    let force = opts.force;
    let target = output.unwrap_or(input_path);
    let err = |source: std::io::Error| PatchError::Io { path: target.display().to_string(), source };
    let unchanged = || -> Result<(), PatchError> {
        match input.unchanged_on_disk(input_path) {
            Ok(true) => Ok(()),
            _ => Err(PatchError::Changed(input_path.display().to_string())),
        }
    };
    unchanged()?;
    if target.starts_with("/dev") || target.starts_with("/proc") {
        // `/dev/stdout`, `/dev/null`, `/proc/self/fd/N`: the caller means the open stream, which
        // may be a pipe (no path to resolve) or a redirected file (renaming would unlink it).
        let mut f = std::fs::OpenOptions::new().append(true).open(target).map_err(err)?;
        return f.write_all(contents).map_err(err);
    }
    let real = match std::fs::symlink_metadata(target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(err(e)),
        Ok(_) => Some(std::fs::canonicalize(target).map_err(err)?),
    };
    let Some(real) = real else {
        // A new file: nothing to keep.
        return replace(target, None, contents, &unchanged, opts.pause_before_rename)
            .map_err(|e| e.or_io(err));
    };
    let meta = std::fs::metadata(&real).map_err(err)?;
    if meta.is_dir() {
        return Err(PatchError::Refused { path: target.display().to_string(), why: "it is a directory" });
    }
    if !meta.is_file() {
        // A device, FIFO or socket: write into it; renaming would replace the node itself.
        let mut f = std::fs::OpenOptions::new().write(true).open(&real).map_err(err)?;
        return f.write_all(contents).map_err(err);
    }
    if !force && !writable(&real, &meta) {
        return Err(PatchError::ReadOnly(target.display().to_string()));
    }
    if meta.nlink() > 1 {
        unchanged()?;
        return rewrite_in_place(&real, contents).map_err(err);
    }
    replace(&real, Some(&meta), contents, &unchanged, opts.pause_before_rename).map_err(|e| e.or_io(err))
}

/// Whether the file may be written: some write bit is set and, for a non-root user,
/// `access(W_OK)` agrees (root's `access` ignores the bits, hence the explicit check).
fn writable(path: &Path, meta: &std::fs::Metadata) -> bool {
    use std::os::unix::ffi::OsStrExt;
    if meta.mode() & 0o222 == 0 {
        return false;
    }
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else { return false };
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// A write failure of [`replace`]: an I/O error or a refusal already in its final form.
enum ReplaceError {
    Io(std::io::Error),
    Patch(PatchError),
}

impl ReplaceError {
    fn or_io(self, f: impl Fn(std::io::Error) -> PatchError) -> PatchError {
        match self {
            ReplaceError::Io(e) => f(e),
            ReplaceError::Patch(p) => p,
        }
    }
}

impl From<std::io::Error> for ReplaceError {
    fn from(e: std::io::Error) -> Self {
        ReplaceError::Io(e)
    }
}

/// Replaces `path` atomically by a temporary file with `contents`, keeping `meta`'s mode and
/// owner (falling back to an in-place rewrite when the owner cannot be kept).
fn replace(
    path: &Path,
    meta: Option<&std::fs::Metadata>,
    contents: &[u8],
    unchanged: &dyn Fn() -> Result<(), PatchError>,
    pause: Option<std::time::Duration>,
) -> Result<(), ReplaceError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // A new file gets the usual 0666 minus umask; a replacement gets the old mode below.
    let mode = if meta.is_some() { 0o600 } else { 0o666 };
    // Created and registered under the lock: a signal sees the file registered or not created.
    let mut registry = live();
    if registry.1 {
        return Err(ReplaceError::Patch(PatchError::Interrupted(path.display().to_string())));
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".autosync-")
        .suffix(".tmp")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))
        .tempfile_in(dir)?;
    registry.0.push(tmp.path().to_path_buf());
    drop(registry);
    let result = (|| -> Result<(), ReplaceError> {
        tmp.write_all(contents)?;
        tmp.as_file().sync_all()?;
        if let Some(meta) = meta {
            tmp.as_file().set_permissions(meta.permissions())?;
            let (uid, gid) = (meta.uid(), meta.gid());
            let tmp_meta = tmp.as_file().metadata()?;
            if (tmp_meta.uid(), tmp_meta.gid()) != (uid, gid)
                && std::os::unix::fs::fchown(tmp.as_file(), Some(uid), Some(gid)).is_err()
            {
                // Not allowed to give the file away: keep the owner by writing the file itself.
                unchanged().map_err(ReplaceError::Patch)?;
                return rewrite_in_place(path, contents).map_err(ReplaceError::Io);
            }
        }
        if let Some(pause) = pause {
            std::thread::sleep(pause);
        }
        unchanged().map_err(ReplaceError::Patch)?;
        Ok(())
    })();
    // The signal handler waits for this lock: it sees the file either live or renamed.
    let mut registry = live();
    registry.0.retain(|p| p != tmp.path());
    if registry.1 {
        // Interrupted: `interrupt` deleted the file already (or dropping `tmp` does).
        return Err(ReplaceError::Patch(PatchError::Interrupted(path.display().to_string())));
    }
    match result {
        Ok(()) => {
            tmp.persist(path).map_err(|e| ReplaceError::Io(e.error))?;
            Ok(())
        }
        // Dropping `tmp` deletes it.
        Err(e) => Err(e),
    }
}

/// Overwrites the file at `path` with `contents` (same inode: links, mode and owner stay).
fn rewrite_in_place(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
    f.write_all(contents)?;
    f.set_len(contents.len() as u64)?;
    f.sync_all()
}
