//! The wire: LSP's `Content-Length` frames of JSON-RPC messages, read and written on threads of
//! their own.
//!
//! Why not `lsp_server::Connection::stdio`: its reader ends the connection at the first
//! malformed frame and allocates whatever `Content-Length` claims. Here a malformed frame or
//! body is reported ([`Incoming::Malformed`], answered with a JSON-RPC error) and reading goes
//! on; a header line or body past its limit is skipped, never held in memory. The message types
//! and their serialization are `lsp_server`'s.

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Message, RequestId};
use serde_json::Value;
use std::io::{BufRead, Read, Write};

/// The largest message body read (an editor's buffer is sent whole: the input limit of 16 MiB,
/// escaped as JSON, fits).
pub const MAX_BODY_BYTES: usize = 64 << 20;
/// The longest header line read.
const MAX_HEADER_LINE: usize = 4096;

/// What the reader hands the main loop.
#[derive(Debug)]
pub enum Incoming {
    /// A well-formed message.
    Message(Message),
    /// A frame or body that is no message: answered with an error (for the request `id` when
    /// the body names one).
    Malformed {
        /// The request's id, when the body is JSON with one.
        id: Option<RequestId>,
        /// What is wrong.
        error: String,
    },
}

/// What the writer sends.
#[derive(Debug)]
pub enum Outgoing {
    /// A message.
    Message(Message),
    /// A JSON-RPC object lsp_server cannot express (an error response with a `null` id).
    Raw(Value),
}

impl From<Message> for Outgoing {
    fn from(m: Message) -> Outgoing {
        Outgoing::Message(m)
    }
}

/// One frame's fate.
enum Frame {
    Body(Vec<u8>),
    Malformed(String),
    End,
}

/// Reads one frame. Every call that does not end the stream consumes input, so a client sending
/// garbage gets one error per line of it and the reader is back in step at the next header.
fn read_frame(r: &mut impl BufRead) -> std::io::Result<Frame> {
    let mut length: Option<Result<usize, String>> = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let n = r.by_ref().take(MAX_HEADER_LINE as u64).read_until(b'\n', &mut line)?;
        if n == 0 {
            // End of input; inside a header it cuts a message short, which nobody can answer.
            return Ok(Frame::End);
        }
        if !line.ends_with(b"\n") {
            return Ok(Frame::Malformed(format!("header line longer than {MAX_HEADER_LINE} bytes")));
        }
        // `\r\n` as the protocol says; a bare `\n` is accepted too.
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches('\n').trim_end_matches('\r');
        if text.is_empty() {
            if first {
                // Blank lines between frames carry nothing.
                continue;
            }
            break;
        }
        first = false;
        let Some((name, value)) = text.split_once(':') else {
            return Ok(Frame::Malformed(format!("malformed header line `{text}`")));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            length = Some(
                value.trim().parse::<usize>().map_err(|_| format!("bad Content-Length `{}`", value.trim())),
            );
        }
    }
    let length = match length {
        Some(Ok(n)) => n,
        Some(Err(e)) => return Ok(Frame::Malformed(e)),
        None => return Ok(Frame::Malformed("a header without Content-Length".into())),
    };
    if length > MAX_BODY_BYTES {
        let skipped = std::io::copy(&mut r.by_ref().take(length as u64), &mut std::io::sink())?;
        if skipped < length as u64 {
            return Ok(Frame::End);
        }
        return Ok(Frame::Malformed(format!("a message of {length} bytes (the limit is {MAX_BODY_BYTES})")));
    }
    let mut body = vec![0; length];
    match r.read_exact(&mut body) {
        Ok(()) => Ok(Frame::Body(body)),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(Frame::End),
        Err(e) => Err(e),
    }
}

/// A body as a message, or why it is none.
pub fn parse(body: &[u8]) -> Incoming {
    match serde_json::from_slice::<Message>(body) {
        Ok(m) => Incoming::Message(m),
        Err(e) => {
            // JSON that is no message: answer the request it meant to be, if it has an id.
            let id = serde_json::from_slice::<Value>(body)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .and_then(|id| serde_json::from_value::<RequestId>(id).ok());
            Incoming::Malformed { id, error: e.to_string() }
        }
    }
}

/// Reads frames from `input` until it ends (or fails), handing each to the returned channel;
/// the channel disconnects at the end. The `exit` notification ends reading too: nothing after
/// it is read.
pub fn spawn_reader(mut input: impl BufRead + Send + 'static) -> std::io::Result<Receiver<Incoming>> {
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::Builder::new().name("lsp-reader".into()).spawn(move || loop {
        let incoming = match read_frame(&mut input) {
            Ok(Frame::Body(body)) => parse(&body),
            Ok(Frame::Malformed(error)) => Incoming::Malformed { id: None, error },
            Ok(Frame::End) | Err(_) => return,
        };
        let exit = matches!(&incoming, Incoming::Message(Message::Notification(n)) if n.method == "exit");
        if tx.send(incoming).is_err() || exit {
            return;
        }
    })?;
    Ok(rx)
}

/// Writes what the returned channel receives to `output`, one frame each, until every sender
/// is gone (then the thread ends; join it to know everything was written) or a write fails.
pub fn spawn_writer(
    mut output: impl Write + Send + 'static,
) -> std::io::Result<(Sender<Outgoing>, std::thread::JoinHandle<()>)> {
    let (tx, rx) = crossbeam_channel::unbounded::<Outgoing>();
    let handle = std::thread::Builder::new().name("lsp-writer".into()).spawn(move || {
        for out in rx {
            let written = match out {
                Outgoing::Message(m) => m.write(&mut output),
                Outgoing::Raw(v) => {
                    let text = v.to_string();
                    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())
                        .and_then(|()| output.flush())
                }
            };
            if written.is_err() {
                // The client is gone; the main loop notices when its input ends.
                return;
            }
        }
    })?;
    Ok((tx, handle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &str) -> Vec<String> {
        let mut r = std::io::Cursor::new(input.as_bytes().to_vec());
        let mut out = Vec::new();
        loop {
            match read_frame(&mut r) {
                Ok(Frame::Body(b)) => out.push(format!("body {}", String::from_utf8_lossy(&b))),
                Ok(Frame::Malformed(e)) => out.push(format!("malformed {e}")),
                Ok(Frame::End) | Err(_) => return out,
            }
        }
    }

    #[test]
    fn frames_and_errors_in_one_stream() {
        let got = frames(
            "Content-Length: 2\r\n\r\n{}garbage\r\n\r\nContent-Type: x\r\n\r\nContent-Length: 3\nX-Other: 1\n\n[1]\
             Content-Length: 99999999999\r\n\r\nContent-Length: 5\r\n\r\nab",
        );
        assert_eq!(got[0], "body {}");
        assert!(got[1].starts_with("malformed malformed header"), "{got:?}");
        assert!(got[2].contains("without Content-Length"), "{got:?}");
        assert_eq!(got[3], "body [1]");
        // An oversized body is skipped to the end of the input, and a cut one ends it.
        assert_eq!(got.len(), 4, "{got:?}");
    }

    #[test]
    fn bodies_that_are_not_messages() {
        assert!(matches!(parse(b"{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"), Incoming::Message(_)));
        match parse(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":3}") {
            Incoming::Malformed { id, .. } => assert_eq!(id, Some(RequestId::from(7))),
            other => panic!("{other:?}"),
        }
        assert!(matches!(parse(b"{not json"), Incoming::Malformed { id: None, .. }));
    }
}
