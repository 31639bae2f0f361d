//! `--format sarif`: the JSON document's files as one SARIF 2.1.0 log, so code-scanning tools
//! (GitHub's among them) show races on the lines they are on. A race is a result whose
//! `locations` is the first access and whose `relatedLocations` and `codeFlows` (one thread flow
//! per witness thread) name both; a divergent barrier is a result at the barrier with the guard
//! related; an out-of-bounds access is a result at the access (a finding of a kernel written in
//! an included header is located in that header, its artifact); `fix` adds one result per changed file whose `fixes` carry the edits. Files that could
//! not be analysed are tool execution notifications.

use serde_json::{json, Value};

/// Rule names and what they mean (the SARIF `rules`).
const RULES: [(&str, &str); 10] = [
    ("data-race", "Two threads of a block access the same shared or global element, at least one writes, and no barrier orders them"),
    ("grid-race", "Threads of different blocks access the same global element, at least one writes (no barrier can order them)"),
    ("copy-in-flight", "A thread touches the destination of its own asynchronous copy (cp.async, __pipeline_memcpy_async) before the wait that lands it (only a wait fixes it)"),
    ("benign-race", "Two threads write the same value to the same element (a warning; an error under --strict)"),
    ("barrier-divergence", "A __syncthreads() that only some threads of a block reach"),
    ("warp-barrier-divergence", "A __syncwarp() that only some threads of a warp reach"),
    ("named-barrier-mismatch", "A named barrier (bar.sync/bar.arrive id, n) whose instances the threads that join it do not match: another number of threads than it waits for, unequally often, or an arrival that may count toward an earlier instance"),
    ("out-of-bounds", "An access whose index may leave an array of known size (no barrier fixes it)"),
    ("undecided", "A kernel `autosync fix` left as it is: the verifier ran out of its budget or synthesis gave up"),
    ("missing-barrier", "Barriers `autosync fix` inserts (or removes) to make the file correctly synchronized"),
];

/// The SARIF log of a run: `files` are the JSON document's `files`, `error` its `error`;
/// `incomplete` when the run was interrupted (the invocation is then unsuccessful and says so
/// in its `properties` and a notification).
pub fn log(command: &str, files: &[Value], error: Option<&Value>, incomplete: bool) -> Value {
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    for file in files {
        let uri = uri_of(file["file"].as_str().unwrap_or_default());
        // A refused kernel is one notification each (the file's `error` is the first of them).
        match file.get("refused").and_then(Value::as_array) {
            // A kernel of an included header is refused there (its own `file`).
            Some(refused) => notifications.extend(refused.iter().map(|e| {
                let own = e["file"].as_str().filter(|f| Some(*f) != file["file"].as_str()).map(uri_of);
                notification(e, Some(own.as_deref().unwrap_or(&uri)))
            })),
            None => notifications.extend(file.get("error").map(|e| notification(e, Some(&uri)))),
        }
        for kernel in file["kernels"].as_array().into_iter().flatten() {
            // `fix`: what stays in the written file (`remaining`) is reported as well.
            let remaining = kernel["remaining"].as_array().into_iter().flatten();
            for finding in kernel["findings"].as_array().into_iter().flatten().chain(remaining) {
                results.push(result(finding, &uri, kernel["name"].as_str().unwrap_or_default()));
            }
        }
        if command == "fix" && file["changed"] == json!(true) {
            results.push(fix_result(file, &uri));
        }
    }
    if let Some(e) = error {
        notifications.push(notification(e, None));
    }
    if incomplete {
        notifications.push(json!({
            "level": "error",
            "message": {"text": format!("interrupted: only the {} file(s) finished are reported", files.len())},
        }));
    }
    let used: std::collections::BTreeSet<&str> =
        results.iter().filter_map(|r| r["ruleId"].as_str()).collect();
    let rules: Vec<Value> = RULES
        .iter()
        .filter(|(id, _)| used.contains(id))
        .map(|(id, text)| json!({"id": id, "shortDescription": {"text": text}}))
        .collect();
    let success = !incomplete && error.is_none() && files.iter().all(|f| f.get("error").is_none());
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "autosync",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "invocations": [{
                "executionSuccessful": success,
                "toolExecutionNotifications": notifications,
                "properties": {"incomplete": incomplete},
            }],
            "results": results,
        }],
    })
}

/// A path as a URI reference: relative paths stay relative (to the checkout root, for code
/// scanning), absolute ones become `file://` URIs; characters URIs cannot hold are escaped.
fn uri_of(path: &str) -> String {
    let mut s = String::new();
    let path = path.replace('\\', "/");
    let path = path.trim_start_matches("./");
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:@!$&'()*+,;=".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    if s.starts_with('/') {
        format!("file://{s}")
    } else {
        s
    }
}

/// A SARIF physical location from a JSON `Location`.
fn physical(uri: &str, loc: &Value) -> Value {
    json!({"physicalLocation": {
        "artifactLocation": {"uri": uri},
        "region": {
            "startLine": loc["line"],
            "startColumn": loc["col"],
            "endLine": loc["end_line"],
            "endColumn": loc["end_col"],
        },
    }})
}

fn with_message(mut location: Value, text: &str) -> Value {
    if !text.is_empty() {
        location["message"] = json!({"text": text});
    }
    location
}

fn level(severity: &Value) -> &'static str {
    match severity.as_str() {
        Some("warning") => "warning",
        Some("note") => "note",
        _ => "error",
    }
}

/// One finding as a result: located in its own `file` when it has one (a kernel written in an
/// included header), else in the input's (`uri`).
fn result(finding: &Value, uri: &str, kernel: &str) -> Value {
    let own = finding["file"].as_str().map(uri_of);
    let uri = own.as_deref().unwrap_or(uri);
    let mut text = format!("{} (kernel `{kernel}`)", finding["message"].as_str().unwrap_or_default());
    for n in finding["notes"].as_array().into_iter().flatten() {
        text.push('\n');
        text.push_str(n.as_str().unwrap_or_default());
    }
    let label = finding["label"].as_str().unwrap_or_default();
    let mut r = json!({
        "ruleId": finding["rule"],
        "level": level(&finding["severity"]),
        "message": {"text": text},
        "locations": [],
    });
    let Some(loc) = finding.get("location").filter(|l| !l.is_null()) else { return r };
    r["locations"] = json!([with_message(physical(uri, loc), label)]);
    let related: Vec<&Value> = finding["related"].as_array().into_iter().flatten().collect();
    if !related.is_empty() {
        let mut list = vec![with_message(json!({"id": 0}), label)];
        list[0]["physicalLocation"] = physical(uri, loc)["physicalLocation"].clone();
        for (i, rel) in related.iter().enumerate() {
            let mut l =
                with_message(physical(uri, &rel["location"]), rel["message"].as_str().unwrap_or_default());
            l["id"] = json!(i + 1);
            list.push(l);
        }
        r["relatedLocations"] = json!(list);
    }
    // A race's witness: the two threads, each a thread flow through its own access.
    let is_race = finding["rule"].as_str().is_some_and(|rule| rule.ends_with("race"));
    if is_race {
        let second =
            related.first().map(|rel| (&rel["location"], rel["message"].as_str().unwrap_or_default()));
        let flow = |loc: &Value, text: &str| json!({"locations": [{"location": with_message(physical(uri, loc), text)}]});
        let mut flows = vec![flow(loc, label)];
        if let Some((l2, t2)) = second {
            flows.push(flow(l2, t2));
        }
        r["codeFlows"] = json!([{"threadFlows": flows}]);
    }
    r
}

/// The edits of a changed file as a `missing-barrier` result with its fix.
fn fix_result(file: &Value, uri: &str) -> Value {
    let edits: Vec<&Value> = file["edits"].as_array().into_iter().flatten().collect();
    let first_line = edits.first().and_then(|e| e["line"].as_u64()).unwrap_or(1);
    // Counted in the file, not per kernel: kernels sharing source text ask for the same statement.
    let inserted = file["barriers_inserted"].as_u64().unwrap_or(0);
    let replacements: Vec<Value> = edits
        .iter()
        .map(|e| {
            json!({
                "deletedRegion": {"byteOffset": e["offset"], "byteLength": e["length"]},
                "insertedContent": {"text": e["text"]},
            })
        })
        .collect();
    let level = if file["exit_code"] == json!(0) { "note" } else { "error" };
    json!({
        "ruleId": "missing-barrier",
        "level": level,
        "message": {"text": format!("{inserted} barrier(s) make this file correctly synchronized")},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": {"startLine": first_line}}}],
        "fixes": [{
            "description": {"text": "insert the barriers autosync synthesized"},
            "artifactChanges": [{"artifactLocation": {"uri": uri}, "replacements": replacements}],
        }],
    })
}

/// A file that could not be analysed (or a failed run) as a tool execution notification.
fn notification(error: &Value, uri: Option<&str>) -> Value {
    let mut n = json!({"level": "error", "message": {"text": error["message"]}});
    let file = uri.map(str::to_string).or_else(|| error["file"].as_str().map(uri_of));
    if let Some(uri) = file {
        let mut region = json!({});
        if let Some(line) = error["line"].as_u64() {
            region["startLine"] = json!(line);
            if let Some(col) = error["col"].as_u64() {
                region["startColumn"] = json!(col);
            }
            n["locations"] =
                json!([{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}]);
        } else {
            n["locations"] = json!([{"physicalLocation": {"artifactLocation": {"uri": uri}}}]);
        }
    }
    n
}
