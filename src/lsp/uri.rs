//! `file:` URIs ↔ paths (Unix paths: every byte but the unreserved ones and `/` is
//! percent-encoded, and decoding gives the path's bytes back exactly).

use lsp_types::Uri;
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The local path a URI names: `None` for any other scheme (`untitled:`), a remote host or a
/// malformed escape.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://").or_else(|| s.strip_prefix("FILE://"))?;
    // `file:///p` (empty authority) or `file://localhost/p`; a query or fragment is no path.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') || path.contains(['?', '#']) {
        return None;
    }
    let bytes = decode(path)?;
    Some(PathBuf::from(OsString::from_vec(bytes)))
}

/// The `file:` URI of an absolute path (`None` for a relative one).
pub fn from_path(path: &Path) -> Option<Uri> {
    if !path.is_absolute() {
        return None;
    }
    let mut s = String::from("file://");
    for &b in path.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'.' | b'_' | b'~') {
            s.push(char::from(b));
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).ok()
}

/// Percent-decoding into bytes; a `%` not followed by two hex digits is malformed.
fn decode(s: &str) -> Option<Vec<u8>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(s: &str) -> Uri {
        Uri::from_str(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn round_trips_odd_names() {
        for p in ["/tmp/a b/k.cu", "/x/ünï%cödé/#1.kpl", "/r/[x]?.cu"] {
            let u = from_path(Path::new(p)).unwrap_or_else(|| panic!("{p}"));
            assert_eq!(to_path(&u).as_deref(), Some(Path::new(p)), "{}", u.as_str());
        }
    }

    #[test]
    fn reads_what_editors_send() {
        assert_eq!(to_path(&uri("file:///home/u/a%20b.cu")), Some(PathBuf::from("/home/u/a b.cu")));
        assert_eq!(to_path(&uri("file://localhost/k.cu")), Some(PathBuf::from("/k.cu")));
        assert_eq!(to_path(&uri("untitled:Untitled-1")), None);
        assert_eq!(to_path(&uri("file://host/share/k.cu")), None);
        assert_eq!(decode("/bad%zz.cu"), None);
        assert_eq!(decode("/bad%2"), None);
        assert!(from_path(Path::new("relative.cu")).is_none());
    }
}
