//! The main loop: the protocol's lifecycle (initialize, shutdown, exit), the documents the
//! client has open, diagnostics published as analyses finish, code actions answered from the
//! last analysis of the current version.
//!
//! Invariants: the loop never analyses (the worker does) and never writes a file (a fix is a
//! `WorkspaceEdit` the client applies); every request gets exactly one response — an unknown
//! method `MethodNotFound`, bad parameters `InvalidParams`, anything before `initialize`
//! `ServerNotInitialized`, anything after `shutdown` `InvalidRequest`; diagnostics are published
//! only for the version the client holds, with that version.

use super::analysis::{self, Analysis, Settings};
use super::position::{Encoding, LineIndex};
use super::transport::{Incoming, Outgoing};
use super::uri;
use super::worker::{Done, Job, Worker};
use super::LspError;
use crossbeam_channel::{select, Receiver, Sender};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams, InitializeParams,
    OneOf, OptionalVersionedTextDocumentIdentifier, PositionEncodingKind, PublishDiagnosticsParams, Range,
    TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long typing must pause before the buffer is analysed.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// How the session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `shutdown`, then `exit`: exit status 0.
    Clean,
    /// `exit` without `shutdown`, or the input ended: exit status 1 (the protocol's rule).
    Abrupt,
}

/// An open document.
struct Doc {
    version: i32,
    text: Arc<str>,
    /// The file it is the buffer of, when it is one autosync analyses.
    path: Option<PathBuf>,
    /// The last analysis published, with its version.
    analysis: Option<(i32, Analysis)>,
}

struct Server {
    out: Sender<Outgoing>,
    settings: Settings,
    encoding: Encoding,
    /// The client applies `documentChanges` (versioned edits, refused on a changed buffer).
    versioned_edits: bool,
    /// Keyed by the URI's text (`Uri` caches parts of itself in cells: no map key).
    docs: HashMap<String, Doc>,
    worker: Option<Worker>,
    done: (Sender<Done>, Receiver<Done>),
    shutdown: bool,
}

/// Runs a session on `incoming`/`out` until `exit` or the end of the input.
pub fn run(
    incoming: &Receiver<Incoming>,
    out: Sender<Outgoing>,
    settings: Settings,
) -> Result<Ended, LspError> {
    let mut server = Server {
        out,
        settings,
        encoding: Encoding::Utf16,
        versioned_edits: false,
        docs: HashMap::new(),
        worker: None,
        done: crossbeam_channel::unbounded(),
        shutdown: false,
    };
    let done = server.done.1.clone();
    loop {
        select! {
            recv(incoming) -> msg => match msg {
                Ok(Incoming::Message(m)) => {
                    if let Some(ended) = server.message(m)? {
                        return Ok(ended);
                    }
                }
                Ok(Incoming::Malformed { id, error }) => server.malformed(id, &error),
                Err(_) => return Ok(Ended::Abrupt),
            },
            recv(done) -> d => {
                if let Ok(d) = d {
                    server.finished(d);
                }
            }
        }
    }
}

impl Server {
    fn send(&self, m: impl Into<Outgoing>) {
        // A failed send means the writer is gone (the client closed our output): the session
        // ends when the input does.
        let _ = self.out.send(m.into());
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) {
        if let Ok(params) = serde_json::to_value(params) {
            self.send(Message::Notification(Notification { method: method.into(), params }));
        }
    }

    fn log(&self, message: &str) {
        // 3: Info.
        self.notify("window/logMessage", json!({"type": 3, "message": message}));
    }

    fn reply(&self, id: RequestId, result: Result<Value, (ErrorCode, String)>) {
        let response = match result {
            Ok(v) => Response { id, response_result: Ok(v) },
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.send(Message::Response(response));
    }

    fn malformed(&self, id: Option<RequestId>, error: &str) {
        self.log(&format!("autosync: ignored a malformed message: {error}"));
        match id {
            Some(id) => {
                self.reply(id, Err((ErrorCode::InvalidRequest, format!("not a valid message: {error}"))))
            }
            None => self.send(Outgoing::Raw(json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": ErrorCode::ParseError as i32, "message": format!("parse error: {error}")},
            }))),
        }
    }

    /// One message; `Some` when the session ends.
    fn message(&mut self, m: Message) -> Result<Option<Ended>, LspError> {
        match m {
            Message::Request(req) => self.request(req)?,
            Message::Notification(n) if n.method == "exit" => {
                return Ok(Some(if self.shutdown { Ended::Clean } else { Ended::Abrupt }));
            }
            // Before `initialize` a notification is dropped (the protocol's rule).
            Message::Notification(n) if self.worker.is_some() => self.notification(n),
            Message::Notification(_) => {}
            // The server sends no requests, so a response answers nothing.
            Message::Response(_) => {}
        }
        Ok(None)
    }

    fn request(&mut self, req: Request) -> Result<(), LspError> {
        let Request { id, method, params } = req;
        if self.worker.is_none() && method != "initialize" {
            self.reply(id, Err((ErrorCode::ServerNotInitialized, "initialize first".into())));
            return Ok(());
        }
        if self.shutdown {
            self.reply(id, Err((ErrorCode::InvalidRequest, "the server is shutting down".into())));
            return Ok(());
        }
        match method.as_str() {
            "initialize" if self.worker.is_some() => {
                self.reply(id, Err((ErrorCode::InvalidRequest, "already initialized".into())))
            }
            "initialize" => match serde_json::from_value::<InitializeParams>(params) {
                Ok(p) => {
                    let result = self.initialize(&p)?;
                    self.reply(id, Ok(result));
                }
                Err(e) => self.reply(id, Err((ErrorCode::InvalidParams, e.to_string()))),
            },
            "shutdown" => {
                self.shutdown = true;
                self.reply(id, Ok(Value::Null));
            }
            "textDocument/codeAction" => match serde_json::from_value::<CodeActionParams>(params) {
                Ok(p) => {
                    let actions = self.code_actions(&p);
                    let result = serde_json::to_value(actions).map_err(|e| {
                        (ErrorCode::InternalError, format!("cannot serialize the actions: {e}"))
                    });
                    self.reply(id, result);
                }
                Err(e) => self.reply(id, Err((ErrorCode::InvalidParams, e.to_string()))),
            },
            _ => self
                .reply(id, Err((ErrorCode::MethodNotFound, format!("autosync does not handle `{method}`")))),
        }
        Ok(())
    }

    fn initialize(&mut self, p: &InitializeParams) -> Result<Value, LspError> {
        let offered = p.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_ref());
        // UTF-8 where the client offers it (the text's own offsets), else the default UTF-16.
        if offered.is_some_and(|e| e.contains(&PositionEncodingKind::UTF8)) {
            self.encoding = Encoding::Utf8;
        }
        self.versioned_edits = p
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.workspace_edit.as_ref())
            .and_then(|e| e.document_changes)
            .unwrap_or(false);
        let worker = Worker::spawn(self.settings.clone(), self.encoding, self.done.0.clone())
            .map_err(|source| LspError::Thread { what: "analysis", source })?;
        self.worker = Some(worker);
        let encoding = match self.encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        };
        Ok(json!({
            "capabilities": {
                "positionEncoding": encoding,
                // Whole texts: every analysis reads the whole buffer anyway.
                "textDocumentSync": {"openClose": true, "change": 1, "save": {"includeText": false}},
                "codeActionProvider": {"codeActionKinds": [CodeActionKind::QUICKFIX]},
            },
            "serverInfo": {"name": "autosync", "version": env!("CARGO_PKG_VERSION")},
        }))
    }

    fn notification(&mut self, n: Notification) {
        let Notification { method, params } = n;
        let bad = |e: serde_json::Error| format!("autosync: ignored `{method}` with bad parameters: {e}");
        match method.as_str() {
            "textDocument/didOpen" => match serde_json::from_value::<DidOpenTextDocumentParams>(params) {
                Ok(p) => {
                    let d = p.text_document;
                    let path = uri::to_path(&d.uri).filter(|p| analysis::is_analysed(p));
                    if path.is_none() {
                        self.log(&format!(
                            "autosync: not analysing {} (only .cu, .cuh and .kpl files)",
                            d.uri.as_str()
                        ));
                    }
                    let doc = Doc { version: d.version, text: Arc::from(d.text), path, analysis: None };
                    self.docs.insert(d.uri.as_str().to_string(), doc);
                    self.schedule(&d.uri, Duration::ZERO);
                }
                Err(e) => self.log(&bad(e)),
            },
            "textDocument/didChange" => match serde_json::from_value::<DidChangeTextDocumentParams>(params) {
                Ok(p) => {
                    let encoding = self.encoding;
                    let Some(doc) = self.docs.get_mut(p.text_document.uri.as_str()) else { return };
                    let mut text = doc.text.to_string();
                    for change in p.content_changes {
                        match change.range {
                            // The sync kind asked for is whole texts; a range is honoured anyway.
                            Some(r) => {
                                let index = LineIndex::new(&text, encoding);
                                let (s, e) = (index.offset(r.start), index.offset(r.end));
                                text.replace_range(s..e.max(s), &change.text);
                            }
                            None => text = change.text,
                        }
                    }
                    doc.text = Arc::from(text);
                    doc.version = p.text_document.version;
                    self.schedule(&p.text_document.uri, DEBOUNCE);
                }
                Err(e) => self.log(&bad(e)),
            },
            "textDocument/didSave" => match serde_json::from_value::<DidSaveTextDocumentParams>(params) {
                // Saved: headers next to it may have changed too; analyse now.
                Ok(p) => self.schedule(&p.text_document.uri, Duration::ZERO),
                Err(e) => self.log(&bad(e)),
            },
            "textDocument/didClose" => match serde_json::from_value::<DidCloseTextDocumentParams>(params) {
                Ok(p) => {
                    let uri = p.text_document.uri;
                    if let Some(w) = &self.worker {
                        w.forget(&uri);
                    }
                    if self.docs.remove(uri.as_str()).is_some_and(|d| d.path.is_some()) {
                        self.publish(&uri, Vec::new(), None);
                    }
                }
                Err(e) => self.log(&bad(e)),
            },
            // `initialized`, `$/cancelRequest` (every request is answered at once), settings
            // changes, …: nothing to do, and a notification is never answered.
            _ => {}
        }
    }

    /// Queues an analysis of the document's current version, due after `delay`.
    fn schedule(&self, uri: &Uri, delay: Duration) {
        let (Some(doc), Some(worker)) = (self.docs.get(uri.as_str()), &self.worker) else { return };
        let Some(path) = &doc.path else { return };
        worker.submit(Job {
            uri: uri.clone(),
            version: doc.version,
            path: path.clone(),
            text: doc.text.clone(),
            due: Instant::now() + delay,
        });
    }

    fn finished(&mut self, d: Done) {
        if self.docs.get(d.uri.as_str()).is_none_or(|doc| doc.version != d.version) {
            return;
        }
        if let Some(e) = &d.analysis.fix_error {
            self.log(&format!("autosync: no quick fixes for {}: {e}", d.uri.as_str()));
        }
        let Some(doc) = self.docs.get_mut(d.uri.as_str()) else { return };
        let diagnostics = d.analysis.diagnostics.clone();
        doc.analysis = Some((d.version, d.analysis));
        self.publish(&d.uri, diagnostics, Some(d.version));
    }

    fn publish(&self, uri: &Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
        self.notify(
            "textDocument/publishDiagnostics",
            PublishDiagnosticsParams { uri: uri.clone(), diagnostics, version },
        );
    }

    /// The quick fixes of the findings the range touches, and the whole file's fix when it
    /// touches any finding; none unless the current version has been analysed.
    fn code_actions(&self, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let uri = &p.text_document.uri;
        // A client asking for other kinds only (`source.organizeImports`) gets none of ours.
        let wanted = |k: &CodeActionKind| CodeActionKind::QUICKFIX.as_str().starts_with(k.as_str());
        if p.context.only.as_ref().is_some_and(|only| !only.iter().any(wanted)) {
            return Vec::new();
        }
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        let Some((version, analysis)) = doc.analysis.as_ref().filter(|(v, _)| *v == doc.version) else {
            return Vec::new();
        };
        let touches = |d: &lsp_types::Diagnostic| {
            let mut ranges = vec![d.range];
            ranges.extend(d.related_information.iter().flatten().map(|r| r.location.range));
            ranges.iter().any(|r| overlaps(r, &p.range))
        };
        let action = |fix: &analysis::Fix, diagnostics: Vec<lsp_types::Diagnostic>, preferred: bool| {
            CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(diagnostics),
                edit: Some(self.workspace_edit(uri, *version, fix.edits.clone())),
                is_preferred: Some(preferred),
                ..CodeAction::default()
            })
        };
        let mut actions = Vec::new();
        let mut touched = Vec::new();
        for (d, fix) in analysis.diagnostics.iter().zip(&analysis.fixes) {
            if !touches(d) {
                continue;
            }
            touched.push(d.clone());
            if let Some(fix) = fix {
                actions.push(action(fix, vec![d.clone()], true));
            }
        }
        if let Some(fix) = analysis.file_fix.as_ref().filter(|_| !touched.is_empty()) {
            actions.push(action(fix, touched, false));
        }
        actions
    }

    fn workspace_edit(&self, uri: &Uri, version: i32, edits: Vec<TextEdit>) -> WorkspaceEdit {
        if self.versioned_edits {
            let edit = TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: uri.clone(),
                    version: Some(version),
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            };
            WorkspaceEdit {
                document_changes: Some(lsp_types::DocumentChanges::Edits(vec![edit])),
                ..WorkspaceEdit::default()
            }
        } else {
            WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), edits)])), ..WorkspaceEdit::default() }
        }
    }
}

/// Whether two ranges share a position (ends included: a cursor at a finding's end touches it).
fn overlaps(a: &Range, b: &Range) -> bool {
    let le =
        |x: &lsp_types::Position, y: &lsp_types::Position| (x.line, x.character) <= (y.line, y.character);
    le(&a.start, &b.end) && le(&b.start, &a.end)
}
