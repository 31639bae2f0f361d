//! Finding the clang executable and running it: the command line, a wall-clock limit, and the
//! loop that replaces headers found nowhere by empty stand-ins.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{ClangDiagnostic, ClangError, ClangExe, Note, ParseOptions, Severity};

/// The oldest clang whose JSON dump and CUDA support the model was written against.
pub const MIN_CLANG_MAJOR: u32 = 14;

/// The environment variable naming the clang executable when no explicit path is given.
pub const CLANG_ENV: &str = "AUTOSYNC_CLANG";

/// Finds clang: `explicit`, else `$AUTOSYNC_CLANG`, else `clang` on `PATH`; checks that
/// `--version` reports 14 or newer.
pub fn find_clang(explicit: Option<&Path>) -> Result<ClangExe, ClangError> {
    let candidate = match explicit {
        Some(p) => Some(p.to_path_buf()),
        None => match std::env::var_os(CLANG_ENV).filter(|v| !v.is_empty()) {
            Some(v) => Some(PathBuf::from(v)),
            None => search_path("clang"),
        },
    };
    let Some(path) = candidate else {
        return Err(ClangError::NotFound {
            searched: format!("`clang` on PATH (and ${CLANG_ENV} is unset)"),
        });
    };
    let out = Command::new(&path).arg("--version").stdin(Stdio::null()).output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            ClangError::NotFound { searched: path.display().to_string() }
        } else {
            ClangError::Unusable { path: path.clone(), message: e.to_string() }
        }
    })?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = parse_version(&text).ok_or_else(|| ClangError::Unusable {
        path: path.clone(),
        message: format!("`--version` printed no clang version: {}", text.trim()),
    })?;
    if version.0 < MIN_CLANG_MAJOR {
        return Err(ClangError::TooOld {
            path,
            version: format!("{}.{}.{}", version.0, version.1, version.2),
        });
    }
    Ok(ClangExe { path, version })
}

fn search_path(name: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Reads `clang version X.Y.Z` (also `Ubuntu clang version 14.0.0-1ubuntu1`, `Apple clang
/// version …`) from `--version` output.
pub fn parse_version(text: &str) -> Option<(u32, u32, u32)> {
    let rest = &text[text.find("clang version ")? + "clang version ".len()..];
    let word = rest.split_whitespace().next()?;
    let mut parts = word.split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let patch = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    Some((major, minor, patch))
}

/// What one clang run produced.
pub struct RunOutput {
    /// The JSON dump (empty when clang stopped before printing it).
    pub json: Vec<u8>,
    /// Everything clang printed on stderr.
    pub stderr: String,
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
}

/// The language flags every run shares, the precompiled runtime header's build included
/// (a precompiled header is used only under the flags it was built with).
const LANGUAGE: &[&str] = &[
    "-x",
    "cuda",
    "--cuda-device-only",
    "--cuda-gpu-arch=sm_80",
    "-nocudainc",
    "-nocudalib",
    "-nostdinc",
    "-fsyntax-only",
    "-fno-color-diagnostics",
    "-fno-caret-diagnostics",
    "-ferror-limit=0",
    "-std=c++17",
];

/// The command line for one run: CUDA device side, syntax only, JSON dump, no system or CUDA
/// headers but ours (force-included like nvcc's runtime header: precompiled when `pch` is
/// given, so clang neither re-reads nor dumps them), user flags first so the user's own
/// headers win, empty stand-ins for missing headers last.
pub fn command_args(
    file: &Path,
    opts: &ParseOptions,
    header_dir: &Path,
    stub_dirs: &[PathBuf],
    pch: Option<&Path>,
) -> Vec<String> {
    let mut args: Vec<String> = LANGUAGE.iter().map(|s| s.to_string()).collect();
    for d in &opts.include_dirs {
        args.push(format!("-I{}", d.display()));
    }
    for d in &opts.defines {
        args.push(format!("-D{d}"));
    }
    args.extend(opts.extra_args.iter().cloned());
    args.push("-isystem".into());
    args.push(header_dir.display().to_string());
    for s in stub_dirs {
        args.push("-idirafter".into());
        args.push(s.display().to_string());
    }
    match pch {
        Some(p) => {
            args.push("-include-pch".into());
            args.push(p.display().to_string());
        }
        None => {
            args.push("-include".into());
            args.push(super::headers::FORCE_INCLUDE.into());
        }
    }
    args.push("-Xclang".into());
    args.push("-ast-dump=json".into());
    args.push(file.display().to_string());
    args
}

/// The stand-in runtime header precompiled by `exe`, built once per header directory and
/// clang version (into a temporary name, then renamed: concurrent runs never see half a file).
/// `None` when it cannot be built: the runs then include the header as text, which is slower
/// (clang reads and dumps every stand-in declaration) and gives the same model.
fn precompiled_runtime(exe: &ClangExe, header_dir: &Path, timeout: Duration) -> Option<PathBuf> {
    let (major, minor, patch) = exe.version;
    let name = format!("runtime-clang-{major}.{minor}.{patch}.pch");
    let pch = header_dir.join(&name);
    if pch.is_file() {
        return Some(pch);
    }
    let tmp = header_dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut args: Vec<String> = LANGUAGE.iter().map(|s| s.to_string()).collect();
    args.extend(["-isystem".into(), header_dir.display().to_string()]);
    args.extend(["-Xclang", "-emit-pch", "-Xclang", "-o", "-Xclang"].map(String::from));
    args.push(tmp.display().to_string());
    let header = header_dir.join(super::headers::FORCE_INCLUDE);
    args.push(header.display().to_string());
    let built = run_clang(exe, &args, &header, timeout).is_ok_and(|o| o.code == Some(0));
    if built && std::fs::rename(&tmp, &pch).is_ok() {
        return Some(pch);
    }
    let _ = std::fs::remove_file(&tmp);
    pch.is_file().then_some(pch)
}

/// Runs clang with `args`, killing it after `timeout`.
pub fn run_clang(
    exe: &ClangExe,
    args: &[String],
    file: &Path,
    timeout: Duration,
) -> Result<RunOutput, ClangError> {
    use std::os::unix::process::CommandExt;
    // Its own process group, so a timeout kills whatever clang started too (a wrapper script's
    // children would otherwise keep the pipes open).
    let mut child = Command::new(&exe.path)
        .args(args)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| ClangError::Unusable { path: exe.path.clone(), message: e.to_string() })?;
    // Both pipes are drained on their own threads: clang blocks once a pipe buffer fills, and
    // a dump is megabytes.
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    // The dump is read up to its limit; past it the reader stops and says so, and clang is
    // killed below (it would block on the full pipe until the timeout).
    let too_large = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen_too_large = too_large.clone();
    let out_thread = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let limit = crate::limits::MAX_AST_BYTES;
            let _ = s.take(limit + 1).read_to_end(&mut buf);
            if buf.len() as u64 > limit {
                seen_too_large.store(true, std::sync::atomic::Ordering::SeqCst);
                buf = Vec::new();
            }
        }
        buf
    });
    let err_thread = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stderr.as_mut() {
            let _ = s.read_to_end(&mut buf);
        }
        buf
    });
    let start = Instant::now();
    let status = loop {
        if too_large.load(std::sync::atomic::Ordering::SeqCst) {
            kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            let _ = out_thread.join();
            let _ = err_thread.join();
            return Err(ClangError::TooLarge { file: file.to_path_buf() });
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() >= timeout => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                let _ = out_thread.join();
                let _ = err_thread.join();
                return Err(ClangError::Timeout { file: file.to_path_buf(), seconds: timeout.as_secs_f64() });
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                let _ = child.kill();
                return Err(ClangError::Unusable { path: exe.path.clone(), message: e.to_string() });
            }
        }
    };
    let json = out_thread.join().unwrap_or_default();
    if too_large.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(ClangError::TooLarge { file: file.to_path_buf() });
    }
    let stderr = String::from_utf8_lossy(&err_thread.join().unwrap_or_default()).into_owned();
    Ok(RunOutput { json, stderr, code: status.code() })
}

fn kill_group(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) with a negative pid signals the process group we created for the
        // child; it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// The header a `fatal error: 'X' file not found` line names.
pub fn missing_header(stderr: &str) -> Option<String> {
    stderr.lines().find_map(|l| {
        let rest = &l[l.find("fatal error: '")? + "fatal error: '".len()..];
        let name = &rest[..rest.find("' file not found")?];
        Some(name.to_string())
    })
}

/// Creates an empty stand-in for `name` below `stub_root` and returns the directory to add to
/// the search path, or why it cannot be stood in for. A name with `..` components gets its own
/// base directory deep enough that the file stays inside `stub_root`.
pub fn create_stub(stub_root: &Path, name: &str) -> Result<PathBuf, String> {
    let rel = Path::new(name);
    if rel.is_absolute() || name.is_empty() {
        return Err("an absolute path cannot be stood in for".into());
    }
    let ups = rel.components().filter(|c| matches!(c, std::path::Component::ParentDir)).count();
    let mut base = stub_root.join(format!("d{ups}"));
    for _ in 0..ups {
        base.push("u");
    }
    let mut target = base.clone();
    for c in rel.components() {
        match c {
            std::path::Component::ParentDir => {
                target.pop();
            }
            std::path::Component::Normal(p) => target.push(p),
            _ => {}
        }
    }
    if !target.starts_with(stub_root) {
        return Err("the path leaves the stand-in directory".into());
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    std::fs::create_dir_all(&base).map_err(|e| e.to_string())?;
    std::fs::write(&target, format!("/* autosync: empty stand-in for missing `{name}` */\n"))
        .map_err(|e| e.to_string())?;
    Ok(base)
}

/// Reads clang's `file:line:col: severity: message` lines. `note:` lines attach to the
/// diagnostic before them only by order; they are kept as their own entries.
pub fn parse_diagnostics(stderr: &str) -> Vec<ClangDiagnostic> {
    let mut out = Vec::new();
    for line in stderr.lines() {
        for (marker, severity) in [
            (": fatal error: ", Severity::Fatal),
            (": error: ", Severity::Error),
            (": warning: ", Severity::Warning),
            (": note: ", Severity::Note),
        ] {
            let Some(at) = line.find(marker) else { continue };
            let head = &line[..at];
            let message = line[at + marker.len()..].to_string();
            let mut parts = head.rsplitn(3, ':');
            let col = parts.next().and_then(|s| s.parse::<u32>().ok());
            let ln = parts.next().and_then(|s| s.parse::<u32>().ok());
            let file = parts.next();
            let (file, line_no, col) = match (file, ln, col) {
                (Some(f), Some(l), Some(c)) => (Some(f.to_string()), l, c),
                _ => (None, 0, 0),
            };
            out.push(ClangDiagnostic { severity, file, line: line_no, col, message });
            break;
        }
    }
    out
}

/// Runs clang until no header is missing (at most `opts.max_missing_headers` stand-ins),
/// returning the last run, the notes about stand-ins and the stub directory (which must
/// outlive nothing: the dump is already read).
pub fn run_with_stubs(
    exe: &ClangExe,
    file: &Path,
    opts: &ParseOptions,
    header_dir: &Path,
    notes: &mut Vec<Note>,
) -> Result<(RunOutput, Option<tempfile::TempDir>), ClangError> {
    let mut stub_root: Option<tempfile::TempDir> = None;
    let mut stub_dirs: Vec<PathBuf> = Vec::new();
    let mut stubbed: Vec<String> = Vec::new();
    let mut pch = precompiled_runtime(exe, header_dir, opts.timeout);
    loop {
        let args = command_args(file, opts, header_dir, &stub_dirs, pch.as_deref());
        let out = run_clang(exe, &args, file, opts.timeout)?;
        // A precompiled header clang will not read (damaged, or another build's): the text.
        if pch.is_some() && out.stderr.contains("PCH file") {
            pch = None;
            continue;
        }
        let Some(name) = missing_header(&out.stderr) else { return Ok((out, stub_root)) };
        let fail = |message: String| ClangError::MissingHeader {
            file: file.to_path_buf(),
            header: name.clone(),
            message,
        };
        if stubbed.contains(&name) {
            return Err(fail("still not found after an empty stand-in was created".into()));
        }
        if stubbed.len() >= opts.max_missing_headers {
            return Err(fail(format!("more than {} headers are missing", opts.max_missing_headers)));
        }
        if stub_root.is_none() {
            stub_root = Some(
                tempfile::Builder::new()
                    .prefix("autosync-stubs-")
                    .tempdir()
                    .map_err(|e| fail(e.to_string()))?,
            );
        }
        let root = stub_root.as_ref().map(|t| t.path().to_path_buf()).unwrap_or_default();
        let dir = create_stub(&root, &name).map_err(fail)?;
        if !stub_dirs.contains(&dir) {
            stub_dirs.push(dir);
        }
        notes.push(Note {
            message: format!("header `{name}` was not found; it was replaced by an empty stand-in"),
            header: Some(name.clone()),
        });
        stubbed.push(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_vendor_banners() {
        assert_eq!(parse_version("Debian clang version 14.0.6\nTarget: x"), Some((14, 0, 6)));
        assert_eq!(parse_version("Ubuntu clang version 18.1.3 (1ubuntu1)"), Some((18, 1, 3)));
        assert_eq!(parse_version("clang version 17.0.0git"), Some((17, 0, 0)));
        assert_eq!(parse_version("gcc (GCC) 12"), None);
    }

    #[test]
    fn missing_header_names_the_first_fatal_one() {
        let err = "a.cu:3:10: fatal error: 'torch/extension.h' file not found\n1 error generated.";
        assert_eq!(missing_header(err).as_deref(), Some("torch/extension.h"));
        assert_eq!(missing_header("a.cu:1:1: error: x"), None);
    }

    #[test]
    fn stubs_with_parent_components_stay_inside_the_root() {
        let root = tempfile::tempdir().unwrap();
        let dir = create_stub(root.path(), "../common/util.h").unwrap();
        assert!(dir.join("../common/util.h").is_file());
        assert!(dir.starts_with(root.path()));
        let plain = create_stub(root.path(), "proj/x.h").unwrap();
        assert!(plain.join("proj/x.h").is_file());
        assert!(create_stub(root.path(), "/etc/x.h").is_err());
    }

    #[test]
    fn diagnostics_are_located() {
        let d = parse_diagnostics(
            "k.cu:11:38: error: use of undeclared identifier 'u'\n\
             /x/h.h:2:1: note: declared here\n\
             1 error generated when compiling for sm_80.\n\
             clang: error: no such file or directory: 'z.cu'",
        );
        assert_eq!(d.len(), 3);
        assert_eq!((d[0].file.as_deref(), d[0].line, d[0].col), (Some("k.cu"), 11, 38));
        assert_eq!(d[0].severity, Severity::Error);
        assert_eq!(d[1].severity, Severity::Note);
        assert_eq!(d[2].file, None);
        assert!(d[2].message.contains("no such file"));
    }
}
