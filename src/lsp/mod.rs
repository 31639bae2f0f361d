//! `autosync lsp`: a language server over stdio. An editor starts it, sends its buffers, and
//! gets `check`'s findings as diagnostics and `fix`'s barriers as quick fixes.
//!
//! - [`transport`]: the `Content-Length` frames (malformed ones answered, never fatal).
//! - [`server`]: the lifecycle, the open documents, publishing and code actions.
//! - [`worker`]: the analysis thread (newest version only, debounced, outdated results dropped).
//! - [`analysis`]: one version analysed through [`crate::driver::buffer`], findings as LSP
//!   diagnostics, fixes as text edits.
//! - [`position`] / [`uri`]: LSP positions (UTF-16 or UTF-8 columns, CRLF) and `file:` URIs.
//!
//! Invariants: data flows one way — this module uses the driver's public API and nothing in the
//! library uses it; the server analyses the editor's text, never the file on disk (which may be
//! older), and never writes a file: a fix is a `WorkspaceEdit` the editor applies; no input the
//! client sends ends the server but `exit` or the end of its input.

pub mod analysis;
pub mod position;
pub mod server;
pub mod transport;
pub mod uri;
pub mod worker;

pub use analysis::Settings;
pub use server::Ended;

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum LspError {
    /// A thread of the server could not be started.
    #[error("cannot start the language server's {what} thread: {source}")]
    Thread {
        /// Which thread.
        what: &'static str,
        /// The system's reason.
        source: std::io::Error,
    },
}

/// Serves the protocol on stdin/stdout until the client says `exit` or closes stdin; returns
/// how the session ended (the exit status is 0 only after `shutdown` then `exit`). Everything
/// written to stdout is protocol; nothing is printed besides.
pub fn serve_stdio(settings: Settings) -> Result<Ended, LspError> {
    serve(std::io::BufReader::new(std::io::stdin()), std::io::stdout(), settings)
}

/// Like [`serve_stdio`] on any byte streams.
pub fn serve(
    input: impl std::io::BufRead + Send + 'static,
    output: impl std::io::Write + Send + 'static,
    settings: Settings,
) -> Result<Ended, LspError> {
    let incoming =
        transport::spawn_reader(input).map_err(|source| LspError::Thread { what: "reader", source })?;
    let (out, writer) =
        transport::spawn_writer(output).map_err(|source| LspError::Thread { what: "writer", source })?;
    let ended = server::run(&incoming, out, settings);
    // `run` dropped its sender: the writer ends once everything queued (the `shutdown`
    // response) is written.
    let _ = writer.join();
    ended
}
