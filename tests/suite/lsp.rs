//! `autosync lsp` driven over stdio as an editor drives it: the built binary, real frames, a
//! kernel written to a temporary directory. Every wait has a deadline, so a hung server fails
//! the test instead of hanging it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any one answer may take (an analysis of a small kernel takes well under a second).
const WAIT: Duration = Duration::from_secs(20);

/// An editor's end of the connection.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    /// Messages received while waiting for something else, oldest first.
    backlog: Vec<Value>,
    next_id: i64,
}

impl Client {
    fn start(dir: &Path) -> Client {
        Client::start_with(dir, &[])
    }

    /// `autosync lsp ARGS` in `dir`.
    fn start_with(dir: &Path, args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_autosync"))
            .arg("lsp")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starts autosync lsp");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, incoming) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    let (name, value) = line.split_once(':').expect("a header line");
                    assert!(name.eq_ignore_ascii_case("content-length"), "unexpected header {line:?}");
                    length = Some(value.trim().parse::<usize>().expect("a length"));
                }
                let mut body = vec![0; length.expect("Content-Length")];
                r.read_exact(&mut body).expect("the whole body");
                let v: Value = serde_json::from_slice(&body).expect("the server writes JSON");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Client { child, stdin, incoming, backlog: Vec::new(), next_id: 1 }
    }

    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).and_then(|()| stdin.flush()).expect("the server reads");
    }

    fn send(&mut self, v: &Value) {
        let body = v.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request; its whole response (result or error).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(&format!("the response to `{method}`"), |m| {
            m["id"] == json!(id) && m.get("method").is_none()
        })
    }

    /// The first message (received before or within [`WAIT`]) that `want` accepts.
    fn wait(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&want) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(m) if want(&m) => return m,
                Ok(m) => self.backlog.push(m),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {what} within {WAIT:?}; received meanwhile: {:#?}", self.backlog)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server closed its output waiting for {what}; received: {:#?}", self.backlog)
                }
            }
        }
    }

    /// The diagnostics published for `uri` at `version`.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let m = self.wait(&format!("diagnostics of {uri} version {version}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == json!(version)
        });
        m["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    fn initialize(&mut self) {
        let capabilities = json!({"workspace": {"workspaceEdit": {"documentChanges": true}}});
        let init = self
            .request("initialize", json!({"processId": null, "rootUri": null, "capabilities": capabilities}));
        let caps = &init["result"]["capabilities"];
        assert_eq!(caps["positionEncoding"], "utf-16", "{init}");
        assert_eq!(caps["codeActionProvider"]["codeActionKinds"], json!(["quickfix"]), "{init}");
        self.notify("initialized", json!({}));
    }

    /// `shutdown`, `exit`: the exit status.
    fn shut_down(mut self) -> i32 {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        self.exit_status()
    }

    fn exit_status(mut self) -> i32 {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            match self.child.try_wait().expect("waits") {
                Some(status) => return status.code().unwrap_or(-1),
                None if Instant::now() > deadline => {
                    let _ = self.child.kill();
                    panic!("the server did not exit within {WAIT:?}");
                }
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // A failed assertion leaves no server behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The offset of an LSP position in an ASCII text (columns are then UTF-16 units and bytes).
fn offset(text: &str, pos: &Value) -> usize {
    let line = pos["line"].as_u64().expect("line") as usize;
    let col = pos["character"].as_u64().expect("character") as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    start + col
}

/// What a client does with a workspace edit of one document.
fn apply(text: &str, edit: &Value) -> String {
    let changes = edit["documentChanges"].as_array().expect("versioned document changes");
    assert_eq!(changes.len(), 1, "{edit}");
    let mut edits: Vec<(usize, usize, String)> = changes[0]["edits"]
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| {
            let (s, t) = (offset(text, &e["range"]["start"]), offset(text, &e["range"]["end"]));
            (s, t, e["newText"].as_str().expect("newText").to_string())
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (s, t, new) in edits {
        out.replace_range(s..t, &new);
    }
    out
}

#[test]
fn an_editor_session_finds_a_race_applies_the_fix_and_sees_it_cleared() {
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("tempdir");
    let cuda = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/fix");
    let racy = std::fs::read_to_string(cuda.join("alias.cu")).expect("alias.cu");
    let fixed = std::fs::read_to_string(cuda.join("alias.fixed.cu")).expect("alias.fixed.cu");
    let path = dir.path().join("alias.cu");
    std::fs::write(&path, &racy).expect("writes the kernel");
    let uri = uri_of(&path);

    let mut c = Client::start(dir.path());
    c.initialize();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": racy}}),
    );
    let diags = c.diagnostics(&uri, 1);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let race = &diags[0];
    assert_eq!(race["code"], "data-race");
    assert_eq!(race["source"], "autosync");
    assert_eq!(race["severity"], 1);
    // Both accesses, as related locations: the write at line 6, the read at line 8.
    let related = race["relatedInformation"].as_array().expect("related information");
    let lines: Vec<&Value> = related.iter().map(|r| &r["location"]["range"]["start"]["line"]).collect();
    assert_eq!(lines, [&json!(5), &json!(7)], "{race:#}");
    assert!(related.iter().all(|r| r["location"]["uri"] == uri.as_str()));
    assert!(related[0]["message"].as_str().is_some_and(|m| m.starts_with("write by thread")), "{race:#}");

    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": race["range"], "context": {"diagnostics": [race]}}),
    );
    let actions = actions["result"].as_array().cloned().expect("code actions");
    let titles: Vec<&str> = actions.iter().filter_map(|a| a["title"].as_str()).collect();
    assert_eq!(
        titles,
        [
            "autosync: insert `__syncthreads();` after line 6 (fixes this race)",
            "autosync: insert all barriers (1 inserted)"
        ],
        "{actions:#?}"
    );
    assert!(actions.iter().all(|a| a["kind"] == "quickfix"));
    let other_kinds = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": race["range"],
               "context": {"diagnostics": [race], "only": ["source.organizeImports"]}}),
    );
    assert_eq!(other_kinds["result"], json!([]), "{other_kinds}");
    let edit = &actions[0]["edit"];
    assert_eq!(edit["documentChanges"][0]["textDocument"]["version"], 1, "{edit}");
    let text = apply(&racy, edit);
    assert_eq!(text, fixed, "the quick fix is `fix`'s edit");
    assert_eq!(apply(&racy, &actions[1]["edit"]), fixed);
    // The server never writes: the file on disk is still the racy one.
    assert_eq!(std::fs::read_to_string(&path).expect("reads"), racy);

    // Typing: version 2 is outdated by version 3 before its debounce delay ends, so only
    // version 3 is analysed and published.
    let typing = racy.replace("row[tx]", "row[tx + 0]");
    for (version, text) in [(2, &typing), (3, &text)] {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }
    std::fs::write(&path, &text).expect("the editor saves");
    c.notify("textDocument/didSave", json!({"textDocument": {"uri": uri}}));
    assert_eq!(c.diagnostics(&uri, 3), Vec::<Value>::new());
    assert!(
        !c.backlog.iter().any(|m| m["params"]["version"] == 2),
        "an outdated version was published: {:#?}",
        c.backlog
    );
    // No fix is offered for a clean file.
    let none = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": race["range"], "context": {"diagnostics": []}}),
    );
    assert_eq!(none["result"], json!([]));
    assert_eq!(c.shut_down(), 0);
    assert!(started.elapsed() < WAIT, "took {:?}", started.elapsed());
}

#[test]
fn bad_input_is_answered_and_survived() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Client::start(dir.path());
    // Before `initialize`, a request is refused (ServerNotInitialized).
    let early = c.request("textDocument/codeAction", json!({}));
    assert_eq!(early["error"]["code"], -32002, "{early}");
    c.initialize();

    // Not JSON: a parse error with a null id, and the server reads on.
    c.raw(b"Content-Length: 9\r\n\r\n{\"jsonrpc");
    let parse = c.wait("a parse error", |m| m["error"]["code"] == -32700);
    assert_eq!(parse["id"], Value::Null, "{parse}");
    // A header that is no header.
    c.raw(b"this is not a header\r\n\r\n");
    c.wait("a second parse error", |m| m["error"]["code"] == -32700);
    // JSON with an id that is no request: InvalidRequest for that id.
    c.send(&json!({"jsonrpc": "2.0", "id": 99, "method": 5}));
    let invalid = c.wait("the invalid request's error", |m| m["id"] == 99);
    assert_eq!(invalid["error"]["code"], -32600, "{invalid}");
    // Unknown methods and bad parameters.
    let unknown = c.request("textDocument/hover", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let params = c.request("textDocument/codeAction", json!({"textDocument": 3}));
    assert_eq!(params["error"]["code"], -32602, "{params}");
    // An unknown notification is ignored (never answered), as are bad parameters of a known one.
    c.notify("$/somethingElse", json!({}));
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": 7}}));

    // A CUDA file that does not parse: one diagnostic where clang stops, the kernel refused.
    let bad = dir.path().join("bad.cu");
    let bad_text = "__global__ void k(int *a) {\n  a[threadIdx.x] = a[0]\n}\n";
    let bad_uri = uri_of(&bad);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": bad_uri, "languageId": "cuda", "version": 1, "text": bad_text}}),
    );
    let d = c.diagnostics(&bad_uri, 1);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0]["code"], "refused");
    assert_eq!(d[0]["range"]["start"], json!({"line": 1, "character": 23}), "{d:#?}");
    assert!(d[0]["message"].as_str().is_some_and(|m| m.contains("expected ';'")), "{d:#?}");

    // A KPL file that does not parse, unsaved (nothing on disk): located too.
    let kpl_uri = uri_of(&dir.path().join("k.kpl"));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": kpl_uri, "languageId": "kpl", "version": 3, "text": "kernel k {\n}\n"}}),
    );
    let d = c.diagnostics(&kpl_uri, 3);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0]["code"], "bad-input");
    assert_eq!(d[0]["range"]["start"], json!({"line": 0, "character": 9}), "{d:#?}");
    // ... and once it is KPL with a race, the race, with its quick fix.
    let fig2 =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kpl/paper/fig2.kpl"))
            .expect("fig2.kpl");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": kpl_uri, "version": 4}, "contentChanges": [{"text": fig2}]}),
    );
    let d = c.diagnostics(&kpl_uri, 4);
    assert_eq!(d.iter().map(|d| d["code"].clone()).collect::<Vec<_>>(), [json!("data-race")], "{d:#?}");

    // Another kind of file, and a URI that is no file: no diagnostics, no crash.
    for (uri, language) in
        [(uri_of(&dir.path().join("notes.txt")), "plaintext"), ("untitled:Untitled-1".into(), "cuda")]
    {
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": "hello"}}),
        );
    }
    c.wait("the log line of the skipped file", |m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"].as_str().is_some_and(|s| s.contains("untitled:"))
    });
    assert!(
        !c.backlog.iter().any(|m| m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"].as_str().is_some_and(|u| u.ends_with("notes.txt"))),
        "{:#?}",
        c.backlog
    );
    assert_eq!(c.shut_down(), 0);
}

/// The quick fixes of the one finding of `path`'s text, opened as version 1.
fn quick_fixes(c: &mut Client, path: &Path, text: &str) -> Vec<String> {
    let uri = uri_of(path);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}),
    );
    let d = c.diagnostics(&uri, 1);
    assert_eq!(d.len(), 1, "{d:#?}");
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d[0]["range"], "context": {"diagnostics": d}}),
    );
    let titles = actions["result"].as_array().cloned().unwrap_or_default();
    titles.iter().filter_map(|a| a["title"].as_str().map(String::from)).collect()
}

#[test]
fn the_configuration_and_the_compile_database_are_the_clis() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    // A race inside `if (t < 32)`: `__syncwarp()` fixes it; `synthesis.warp: false` leaves no fix.
    let warp = root.join("warp.cu");
    let warp_text = "//--blockDim=64 --gridDim=1\n__global__ void k(int *out) {\n    __shared__ int s[64];\n    \
                     int t = threadIdx.x;\n    if (t < 32) {\n        s[t] = t;\n        out[t] = s[31 - t];\n    }\n}\n";
    std::fs::write(&warp, warp_text).expect("writes");
    std::fs::write(root.join("nowarp.yaml"), "synthesis:\n  warp: false\n").expect("writes");
    let mut c = Client::start(root);
    c.initialize();
    assert_eq!(
        quick_fixes(&mut c, &warp, warp_text),
        [
            "autosync: insert `__syncwarp();` after line 6 (fixes this race)",
            "autosync: insert all barriers (1 inserted)"
        ]
    );
    assert_eq!(c.shut_down(), 0);
    let mut c = Client::start_with(root, &["--config", "nowarp.yaml"]);
    c.initialize();
    assert_eq!(quick_fixes(&mut c, &warp, warp_text), Vec::<String>::new());

    // The header is found through the nearest compile_commands.json's -I; its -D, added after the
    // file was opened, takes the race away at the next save.
    std::fs::create_dir_all(root.join("inc")).expect("mkdir");
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("inc/geometry.h"), "#pragma once\n#define TILE 64\n").expect("writes");
    let tile = root.join("src/tile.cu");
    let tile_text = "//--blockDim=64 --gridDim=1\n#include \"geometry.h\"\n__global__ void r(float *v) {\n    \
                     __shared__ float t[TILE];\n    t[threadIdx.x] = v[threadIdx.x];\n#ifdef WITH_BARRIER\n    \
                     __syncthreads();\n#endif\n    v[threadIdx.x] = t[TILE - 1 - threadIdx.x];\n}\n";
    std::fs::write(&tile, tile_text).expect("writes");
    let db = |flags: &str| {
        let entry = json!([{"directory": root, "file": "src/tile.cu", "command": format!("nvcc {flags} -c src/tile.cu")}]);
        std::fs::write(root.join("compile_commands.json"), entry.to_string()).expect("writes the database");
    };
    db("-Iinc");
    let fixes = quick_fixes(&mut c, &tile, tile_text);
    assert_eq!(fixes.len(), 2, "{fixes:?}");
    db("-Iinc -DWITH_BARRIER");
    let uri = uri_of(&tile);
    c.notify("textDocument/didSave", json!({"textDocument": {"uri": uri}}));
    let cleared = c.wait("the diagnostics under the new database", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri.as_str()
            && m["params"]["diagnostics"] == json!([])
    });
    assert_eq!(cleared["params"]["version"], 1);
    assert_eq!(c.shut_down(), 0);
}

#[test]
fn exit_without_shutdown_is_status_1() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = Client::start(dir.path());
    c.initialize();
    c.notify("exit", Value::Null);
    assert_eq!(c.exit_status(), 1);
    // The end of the input without `exit` ends the server too.
    let c = Client::start(dir.path());
    assert_eq!(c.exit_status(), 1);
}

#[test]
fn help_says_how_an_editor_starts_it() {
    let out = Command::new(env!("CARGO_BIN_EXE_autosync")).args(["lsp", "--help"]).output().expect("runs");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    for needle in
        ["Language Server Protocol", "stdin", "vim.lsp.start", "insert all barriers", "compile_commands.json"]
    {
        assert!(help.contains(needle), "`{needle}` missing from:\n{help}");
    }
}

/// The library side, without a process: an unsaved buffer (no file on disk) with a BOM and CRLF
/// line endings gets its diagnostics where its text has them and fixes in its own line endings.
#[test]
fn an_unsaved_crlf_buffer_with_a_bom_is_located_and_fixed_in_its_own_text() {
    use autosync::lsp::analysis::{analyse, apply_edits};
    use autosync::lsp::position::Encoding;
    let cuda = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/fix");
    let as_windows = |s: String| format!("\u{feff}{}", s.replace('\n', "\r\n"));
    let racy = as_windows(std::fs::read_to_string(cuda.join("alias.cu")).expect("alias.cu"));
    let fixed = as_windows(std::fs::read_to_string(cuda.join("alias.fixed.cu")).expect("alias.fixed.cu"));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("never_saved").join("alias.cu");
    let uri: lsp_types::Uri = uri_of(&path).parse().expect("a URI");
    let settings = autosync::lsp::Settings {
        launch: Default::default(),
        build_path: None,
        config: autosync::config::Config::default_config(),
        budget: autosync::driver::Budget::default(),
        strict: false,
    };
    let a = analyse(&path, &racy, &settings, Encoding::Utf16, &uri, &|| false);
    assert_eq!(a.diagnostics.len(), 1, "{:#?}", a.diagnostics);
    let start = a.diagnostics[0].range.start;
    assert_eq!((start.line, start.character), (5, 4), "{:#?}", a.diagnostics);
    let fix = a.fixes[0].as_ref().expect("the race's quick fix");
    assert_eq!(apply_edits(&racy, &fix.edits, Encoding::Utf16), fixed);
    let whole = a.file_fix.as_ref().expect("the file's fix");
    assert_eq!(apply_edits(&racy, &whole.edits, Encoding::Utf16), fixed);
    assert!(!path.exists(), "the buffer was written to disk");
}

/// A race in a kernel written in an included header is published on the document at the
/// `#include` that brings the header in (the document holds no other place for it), its message
/// says where in the header it is, its two accesses are related locations in the header's URI,
/// and no quick fix edits the header.
#[test]
fn a_header_kernels_race_is_shown_at_the_include_with_the_headers_locations() {
    let dir = tempfile::tempdir().expect("tempdir");
    let messages = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/messages");
    for f in ["header_kernel_race.cu", "tile_kernels.cuh"] {
        std::fs::copy(messages.join(f), dir.path().join(f)).expect("copy");
    }
    let path = dir.path().join("header_kernel_race.cu");
    let text = std::fs::read_to_string(&path).expect("runner");
    let uri = uri_of(&path);
    let mut c = Client::start(dir.path());
    c.initialize();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(&uri, 1);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let race = &diags[0];
    assert_eq!(race["code"], "data-race");
    assert_eq!(race["range"]["start"]["line"], 3, "the `#include` line: {race:#}");
    let message = race["message"].as_str().unwrap_or_default();
    let header_at = format!(
        "in {}:12:9: data race on shared array `tile`",
        dir.path().join("tile_kernels.cuh").display()
    );
    assert!(message.starts_with(&header_at), "{message}");
    assert!(message.contains("= in the header included from "), "{message}");
    let related = race["relatedInformation"].as_array().expect("related information");
    let header = uri_of(&dir.path().join("tile_kernels.cuh"));
    let lines: Vec<&Value> = related.iter().map(|r| &r["location"]["range"]["start"]["line"]).collect();
    assert_eq!(lines, [&json!(11), &json!(14)], "{race:#}");
    assert!(related.iter().all(|r| r["location"]["uri"] == header.as_str()), "{race:#}");
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": race["range"], "context": {"diagnostics": [race]}}),
    );
    assert_eq!(actions["result"], json!([]), "{actions}");
    assert_eq!(c.shut_down(), 0);
}
