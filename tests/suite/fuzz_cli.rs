//! `make fuzz-cli`: a mutation fuzzer of the command line over our own corpus (tests/cuda/**,
//! benchmarks/**). Each case mutates one corpus file (delete, duplicate or swap lines, truncate,
//! insert random tokens, deep nesting, bad bytes, BOM, CRLF) and runs the test build's binary
//! `check`, `check --format json` and `fix -o OUT` on it, each under a time limit. A case fails
//! on a panic, a death by signal (abort, stack overflow), a time-out, an exit code other than
//! 0/1/2, an exit 2 whose stderr names no `file:line:col`, or `--format json` stdout that is not
//! exactly one JSON document (errors included).
//!
//! `AUTOSYNC_FUZZ_CLI_CASES` (default 30, what `make test` runs; `make test-slow` runs 300), `AUTOSYNC_FUZZ_CLI_SEED`
//! (default 1), `AUTOSYNC_FUZZ_CLI_TIMEOUT_S` (default 20), `AUTOSYNC_FUZZ_CLI_JOBS` (default 2),
//! `AUTOSYNC_FUZZ_CLI_SMT_MS` (the per-query SMT timeout of the runs, default 1000),
//! `AUTOSYNC_FUZZ_CLI_WORK` (the solver work per kernel of the runs, default 10000000).
//! Failing inputs are kept in `target/fuzz-cli-failures/`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// splitmix64: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut stack = vec![root.join("tests/cuda"), root.join("benchmarks")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|x| x.to_str()), Some("cu" | "kpl"))
                && std::fs::metadata(&p).map(|m| m.len() <= 6000).unwrap_or(false)
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "if",
    "else",
    "for",
    "while",
    "do",
    "return",
    "break",
    "__syncthreads();",
    "__syncwarp();",
    "__global__",
    "__shared__",
    "__device__",
    "int",
    "float",
    "*",
    "&",
    "+",
    "<<",
    "?",
    ":",
    "=",
    "==",
    "#if 1",
    "#endif",
    "#define X (",
    "#include \"x.h\"",
    "foo bar baz",
    "threadIdx.x",
    "blockDim.x",
    "0x7fffffff",
    "99999999999",
    "'",
    "\"",
    "/*",
    "*/",
    "//--blockDim=32",
    "//--gridDim=0",
    "template <int N>",
    "goto L;",
    "L:",
    "switch (t) {",
    "atomicAdd(&s[0], 1);",
    "s[threadIdx.x]",
    "extern",
    "struct S { int a; };",
    "\\",
];

fn mutate(src: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut b = src.to_vec();
    for _ in 0..1 + rng.below(3) {
        let lines: Vec<&[u8]> = b.split_inclusive(|c| *c == b'\n').collect();
        let n = lines.len();
        let pos = rng.below(b.len() + 1);
        b = match rng.below(10) {
            0 if n > 0 => {
                let i = rng.below(n);
                lines.iter().enumerate().filter(|(j, _)| *j != i).flat_map(|(_, l)| l.to_vec()).collect()
            }
            1 if n > 0 => {
                let i = rng.below(n);
                lines
                    .iter()
                    .enumerate()
                    .flat_map(|(j, l)| if j == i { l.repeat(2) } else { l.to_vec() })
                    .collect()
            }
            2 if n > 1 => {
                let (i, j) = (rng.below(n), rng.below(n));
                let mut ls: Vec<&[u8]> = lines.clone();
                ls.swap(i, j);
                ls.concat()
            }
            3 => b[..pos].to_vec(),
            4 | 5 => {
                let tok = TOKENS[rng.below(TOKENS.len())];
                [&b[..pos], b" ", tok.as_bytes(), b" ", &b[pos..]].concat()
            }
            6 => {
                let depth = [10, 300, 1500, 12_000][rng.below(4)];
                let (open, close): (&[u8], &[u8]) = match rng.below(4) {
                    0 => (b"(", b")"),
                    1 => (b"{", b"}"),
                    2 => (b"if (1) {", b"}"),
                    _ => (b"-", b""),
                };
                let closed = rng.below(2) == 0;
                let mut ins = open.repeat(depth);
                ins.extend_from_slice(b"1");
                if closed {
                    ins.extend_from_slice(&close.repeat(depth));
                }
                [&b[..pos], &ins, &b[pos..]].concat()
            }
            7 => {
                let bad = [0x00u8, 0xFF, 0xE9, 0xC3, 0x80, 0xEF, 0x0D][rng.below(7)];
                [&b[..pos], &[bad], &b[pos..]].concat()
            }
            8 => [b"\xEF\xBB\xBF".as_slice(), &b].concat(),
            _ => {
                let mut out = Vec::with_capacity(b.len() + n);
                for c in &b {
                    if *c == b'\n' {
                        out.push(b'\r');
                    }
                    out.push(*c);
                }
                out
            }
        };
    }
    b
}

/// Runs the binary with a time limit: (exit code or None for a signal, stdout, stderr, timed out).
fn run(args: &[&str], dir: &Path, limit: Duration) -> (Option<i32>, String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_autosync"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns autosync");
    // Drain the pipes on threads so a chatty child never blocks on a full pipe.
    let mut out_pipe = child.stdout.take().expect("stdout");
    let mut err_pipe = child.stderr.take().expect("stderr");
    let out_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out_pipe, &mut s);
        s
    });
    let err_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err_pipe, &mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait().expect("waits") {
            break st;
        }
        if start.elapsed() > limit {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("waits");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let out = String::from_utf8_lossy(&out_t.join().unwrap_or_default()).into_owned();
    let err = String::from_utf8_lossy(&err_t.join().unwrap_or_default()).into_owned();
    (status.code(), out, err, timed_out)
}

/// Whether `text` holds `name:LINE:COL`.
fn located(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let rest = &text[i + name.len()..];
        let mut parts = rest.splitn(3, ':');
        parts.next() == Some("")
            && parts.next().is_some_and(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_digit()))
            && parts.next().is_some_and(|c| c.chars().next().is_some_and(|c| c.is_ascii_digit()))
    })
}

#[test]
fn fuzz_cli() {
    let cases: usize = env_or("AUTOSYNC_FUZZ_CLI_CASES", 30);
    let seed: u64 = env_or("AUTOSYNC_FUZZ_CLI_SEED", 1);
    let limit = Duration::from_secs(env_or("AUTOSYNC_FUZZ_CLI_TIMEOUT_S", 20));
    let jobs: usize = env_or("AUTOSYNC_FUZZ_CLI_JOBS", 2).max(1);
    let files = corpus();
    // The fuzzer hunts crashes, not slow proofs: 1 s per SMT query (default 10 s) keeps a
    // kernel whose queries time out from looking like a hang, and a quarter of the default
    // solver work per kernel (10 million units, about 2 s) one that spends its whole budget:
    // a corpus kernel that uses all 40 million runs past the time limit under a loaded test run.
    let smt_ms: u64 = env_or("AUTOSYNC_FUZZ_CLI_SMT_MS", 1000);
    let work: u64 = env_or("AUTOSYNC_FUZZ_CLI_WORK", 10_000_000);
    let config_dir = tempfile::tempdir().expect("temp dir");
    let config = config_dir.path().join("fuzz.yaml");
    let default = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("config/default.yaml"))
        .expect("reads config/default.yaml");
    assert!(default.contains("smt_timeout_ms: 10000"), "config/default.yaml changed its SMT timeout line");
    assert!(default.contains("kernel_work: 40000000"), "config/default.yaml changed its kernel work line");
    let fuzz = default
        .replace("smt_timeout_ms: 10000", &format!("smt_timeout_ms: {smt_ms}"))
        .replace("kernel_work: 40000000", &format!("kernel_work: {work}"));
    std::fs::write(&config, fuzz).expect("writes the fuzz config");
    let config = &config;
    assert!(files.len() > 50, "the corpus is missing ({} files)", files.len());
    let keep = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-cli-failures");
    let next = AtomicUsize::new(0);
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let exits: Mutex<std::collections::BTreeMap<String, usize>> = Mutex::default();
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                let dir = tempfile::tempdir().expect("temp dir");
                loop {
                    let case = next.fetch_add(1, Ordering::Relaxed);
                    if case >= cases {
                        break;
                    }
                    let mut rng = Rng(seed.wrapping_mul(0x1000_0000_01B3) ^ case as u64);
                    let file = &files[rng.below(files.len())];
                    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("cu");
                    let input = mutate(&std::fs::read(file).expect("reads corpus"), &mut rng);
                    let name = format!("case{case}.{ext}");
                    std::fs::write(dir.path().join(&name), &input).expect("writes case");
                    let out_name = format!("case{case}.out.{ext}");
                    let cfg = config.to_str().expect("utf-8 temp path");
                    let commands: [(&str, Vec<&str>); 3] = [
                        ("check", vec!["--config", cfg, "check", &name]),
                        ("check --format json", vec!["--config", cfg, "check", "--format", "json", &name]),
                        ("fix -o", vec!["--config", cfg, "fix", "-o", &out_name, &name]),
                    ];
                    for (label, args) in &commands {
                        let (code, stdout, stderr, timed_out) = run(args, dir.path(), limit);
                        let what = args.join(" ");
                        let key = format!("{label} → {}", code.map_or("signal".into(), |c| c.to_string()));
                        *exits.lock().unwrap_or_else(|e| e.into_inner()).entry(key).or_default() += 1;
                        let mut bad = Vec::new();
                        if timed_out {
                            bad.push(format!("timed out after {limit:?}"));
                        } else if code.is_none() {
                            bad.push("killed by a signal (abort or stack overflow)".to_string());
                        } else if stderr.contains("panicked") || code == Some(101) {
                            bad.push("panicked".to_string());
                        } else if !matches!(code, Some(0..=2)) {
                            bad.push(format!("exit code {code:?}"));
                        }
                        if code == Some(2) && !located(&stderr, &name) {
                            bad.push("exit 2 without file:line:col".to_string());
                        }
                        // `--format json` prints exactly one document, errors included.
                        if args.contains(&"json") && !timed_out && code.is_some() {
                            if let Err(e) = serde_json::from_str::<serde_json::Value>(&stdout) {
                                bad.push(format!("stdout is not one JSON document: {e}"));
                            }
                        }
                        if !bad.is_empty() {
                            let _ = std::fs::create_dir_all(&keep);
                            let _ = std::fs::write(keep.join(format!("seed{seed}-{name}")), &input);
                            let tail: String = stderr.lines().take(6).collect::<Vec<_>>().join("\n");
                            failures.lock().unwrap_or_else(|e| e.into_inner()).push(format!(
                                "case {case} (from {}), `{what}`: {}\n{tail}",
                                file.display(),
                                bad.join("; ")
                            ));
                        }
                    }
                    let _ = std::fs::remove_file(dir.path().join(&name));
                    let _ = std::fs::remove_file(dir.path().join(&out_name));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    println!(
        "fuzz-cli: {cases} cases, seed {seed}, {:.1} s, {} failures",
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    for (k, n) in exits.into_inner().unwrap_or_else(|e| e.into_inner()) {
        println!("  {k}: {n}");
    }
    assert!(
        failures.is_empty(),
        "{} failing runs (inputs in {}):\n{}",
        failures.len(),
        keep.display(),
        failures.join("\n\n")
    );
}
