//! `fix` never damages a file (issue #16): symlinks, hard links, mode, owner, read-only files,
//! non-regular targets, byte-exact round trips (BOM, CRLF, stray bytes), an input edited while
//! `fix` runs, and signals in the write window. Each test builds its situation in a temp dir.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXABLE: &str = include_str!("../robustness/fixable.cu");

fn autosync(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_autosync")).current_dir(dir).args(args).output().expect("runs autosync")
}

fn setup(name: &str, contents: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, contents).expect("writes the input");
    (dir, path)
}

fn barriers(bytes: &[u8]) -> usize {
    String::from_utf8_lossy(bytes).matches("__syncthreads();").count()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn in_place_fix_writes_through_a_symlink() {
    let (dir, real) = setup("real.cu", FIXABLE.as_bytes());
    let link = dir.path().join("link.cu");
    std::os::unix::fs::symlink("real.cu", &link).expect("symlink");
    let o = autosync(dir.path(), &["fix", "link.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink(),
        "the link stays a link"
    );
    assert_eq!(barriers(&std::fs::read(&real).expect("real")), 1, "the real file is fixed");
}

#[test]
fn in_place_fix_keeps_hard_links() {
    let (dir, a) = setup("a.cu", FIXABLE.as_bytes());
    let b = dir.path().join("b.cu");
    std::fs::hard_link(&a, &b).expect("hard link");
    let o = autosync(dir.path(), &["fix", "a.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (ma, mb) = (std::fs::metadata(&a).expect("a"), std::fs::metadata(&b).expect("b"));
    assert_eq!(ma.ino(), mb.ino(), "still one file");
    assert_eq!(ma.nlink(), 2);
    assert_eq!(barriers(&std::fs::read(&b).expect("b")), 1, "the other name sees the fix");
}

#[test]
fn in_place_fix_keeps_mode_and_owner() {
    let (dir, path) = setup("k.cu", FIXABLE.as_bytes());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let owner = if is_root() {
        std::os::unix::fs::chown(&path, Some(4321), Some(4321)).expect("chown");
        Some((4321, 4321))
    } else {
        println!("skipped the owner check: changing a file's owner needs root");
        None
    };
    let o = autosync(dir.path(), &["fix", "k.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let meta = std::fs::metadata(&path).expect("meta");
    assert_eq!(meta.mode() & 0o7777, 0o640);
    if let Some((uid, gid)) = owner {
        assert_eq!((meta.uid(), meta.gid()), (uid, gid));
    }
    assert_eq!(barriers(&std::fs::read(&path).expect("read")), 1);
}

#[test]
fn read_only_files_are_refused_unless_forced() {
    // Decided by the mode bits, so the test means the same as root (whom EACCES never stops).
    let (dir, path) = setup("ro.cu", FIXABLE.as_bytes());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let o = autosync(dir.path(), &["fix", "ro.cu"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("read-only"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&path).expect("read"), FIXABLE.as_bytes(), "untouched");
    if !is_root() {
        println!("skipped the --force half: only root may replace a 0444 file it cannot write");
        return;
    }
    let o = autosync(dir.path(), &["fix", "--force", "ro.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(barriers(&std::fs::read(&path).expect("read")), 1);
    assert_eq!(std::fs::metadata(&path).expect("meta").mode() & 0o7777, 0o444, "still read-only");
}

#[test]
fn output_onto_non_regular_files() {
    let (dir, _) = setup("k.cu", FIXABLE.as_bytes());
    let o = autosync(dir.path(), &["fix", "-o", "/dev/null", "k.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null").expect("/dev/null").file_type().is_char_device());
    let o = autosync(dir.path(), &["fix", "-o", "/dev/stdout", "k.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("__global__ void shift"), "the file went to stdout");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    let o = autosync(dir.path(), &["fix", "-o", "sub", "k.cu"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(std::fs::metadata(dir.path().join("sub")).expect("sub").is_dir());
}

#[test]
fn non_regular_inputs_are_refused_up_front() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("k.cu");
    let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).expect("path");
    // SAFETY: `c` is a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
    // (A directory is a tree of inputs for the command line, not a file: see tests/suite/cli_multi.rs.)
    for target in ["k.cu", "/dev/zero"] {
        let o = autosync(dir.path(), &["check", target]);
        assert_eq!(o.status.code(), Some(2), "{target}: {}", stderr(&o));
        assert!(stderr(&o).contains("not a regular file"), "{target}: {}", stderr(&o));
    }
}

#[test]
fn too_large_inputs_say_the_limit() {
    let big = vec![b'\n'; (autosync::source::MAX_SOURCE_BYTES + 1) as usize];
    let (dir, _) = setup("big.cu", &big);
    let o = autosync(dir.path(), &["check", "big.cu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("file too large"), "{}", stderr(&o));
}

#[test]
fn fixed_files_keep_bom_crlf_and_stray_bytes() {
    let crlf = FIXABLE.replace('\n', "\r\n");
    let mut odd = b"\xEF\xBB\xBF".to_vec();
    odd.extend_from_slice(crlf.replace("// A neighbour", "// caf\u{0}").as_bytes());
    // A Latin-1 byte in the comment, as an editor with another encoding would write it.
    let pos = odd.windows(4).position(|w| w == b"caf\0").expect("marker") + 3;
    odd[pos] = 0xE9;
    let (dir, path) = setup("odd.cu", &odd);
    let o = autosync(dir.path(), &["fix", "odd.cu"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let fixed = std::fs::read(&path).expect("read");
    assert!(fixed.starts_with(b"\xEF\xBB\xBF//--blockDim=64"), "BOM and header kept");
    assert!(fixed.windows(4).any(|w| w == b"caf\xE9"), "the Latin-1 byte is written back");
    assert_eq!(barriers(&fixed), 1);
    let text = String::from_utf8_lossy(&fixed);
    for line in text.split_inclusive('\n') {
        assert!(line.ends_with("\r\n"), "a line without CRLF: {line:?}");
    }
    assert_eq!(fixed.len(), odd.len() + "    __syncthreads();\r\n".len());
}

#[test]
fn an_input_changed_while_fixing_is_not_overwritten() {
    let (dir, path) = setup("k.cu", FIXABLE.as_bytes());
    let child = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .current_dir(dir.path())
        .args(["fix", "--test-pause-before-rename", "3000", "k.cu"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawns");
    wait_for_temp(dir.path());
    let edited = format!("{FIXABLE}// edited meanwhile\n");
    std::fs::write(&path, &edited).expect("edits");
    let o = child.wait_with_output().expect("waits");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("file changed while fixing"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edited, "the edit survives");
    assert_eq!(temp_files(dir.path()), Vec::<String>::new());
}

#[test]
fn signals_in_the_write_window_leave_no_temp_file() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let (dir, path) = setup("k.cu", FIXABLE.as_bytes());
        let child = Command::new(env!("CARGO_BIN_EXE_autosync"))
            .current_dir(dir.path())
            .args(["fix", "--test-pause-before-rename", "5000", "k.cu"])
            .stderr(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("spawns");
        wait_for_temp(dir.path());
        // SAFETY: signalling our own child process.
        assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
        let o = child.wait_with_output().expect("waits");
        assert_eq!(o.status.code(), Some(128 + sig), "signal {sig}");
        assert_eq!(temp_files(dir.path()), Vec::<String>::new(), "signal {sig}");
        assert_eq!(std::fs::read(&path).expect("read"), FIXABLE.as_bytes(), "signal {sig}: untouched");
    }
}

fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".autosync-"))
        .collect()
}

/// Waits (at most 60 s) until `fix` has its temporary file, i.e. is inside the write window.
fn wait_for_temp(dir: &Path) {
    let start = std::time::Instant::now();
    while temp_files(dir).is_empty() {
        assert!(start.elapsed().as_secs() < 60, "fix never reached its write window");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
