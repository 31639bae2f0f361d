//! The file's own way of writing a barrier: in cooperative-groups code, the group's `sync`
//! (`block.sync();`, `cg::sync(block);`, a 32-thread tile's `tile.sync();`), else
//! `__syncthreads();` / `__syncwarp();` (KPL: `barrier;` / `syncwarp;`).

use crate::kpl::Kernel;
use crate::synth::BarrierKind;

/// How one kernel writes its barriers, and where the group variables it names are in scope.
#[derive(Clone, Debug, Default)]
pub struct SyncStyle {
    cuda: bool,
    /// The block group's barrier (`cta.sync();`), from where its declaration ends to the end of
    /// the kernel body.
    block: Option<(String, usize, usize)>,
    /// A 32-thread tile's barrier (`warp.sync();`), likewise.
    warp: Option<(String, usize, usize)>,
}

impl SyncStyle {
    /// The style of kernel `k` in `source` (a CUDA file when `cuda`).
    pub fn of(k: &Kernel, source: &str, cuda: bool) -> SyncStyle {
        let mut style = SyncStyle { cuda, ..SyncStyle::default() };
        if !cuda {
            return style;
        }
        let (start, end) = (k.body.span.start.min(source.len()), k.body.span.end.min(source.len()));
        let Some(body) = source.get(start..end) else { return style };
        if let Some((name, decl_end)) = group_declared(body, "this_thread_block") {
            let text = match sync_call_prefix(body, &name) {
                Some(prefix) => format!("{prefix}sync({name});"),
                None => format!("{name}.sync();"),
            };
            style.block = Some((text, start + decl_end, end));
        }
        if let Some((name, decl_end)) = group_declared(body, "tiled_partition<32>") {
            style.warp = Some((format!("{name}.sync();"), start + decl_end, end));
        }
        style
    }

    /// The statement that puts a barrier of `kind` after label `l` of `k`.
    pub fn text(&self, k: &Kernel, l: crate::kpl::Label, kind: BarrierKind) -> String {
        if !self.cuda {
            return match kind {
                BarrierKind::Block => "barrier;".into(),
                BarrierKind::Warp => "syncwarp;".into(),
                BarrierKind::Named { id, count } => format!("bar sync {id}, {count};"),
            };
        }
        if let BarrierKind::Named { id, count } = kind {
            return format!("asm volatile(\"bar.sync {id}, {count};\" ::: \"memory\");");
        }
        let at = k.place(l).anchor();
        let group = match kind {
            BarrierKind::Block | BarrierKind::Named { .. } => &self.block,
            BarrierKind::Warp => &self.warp,
        };
        match (group, at) {
            (Some((text, from, to)), Some(at)) if at >= *from && at <= *to => text.clone(),
            _ => match kind {
                BarrierKind::Block | BarrierKind::Named { .. } => "__syncthreads();".into(),
                BarrierKind::Warp => "__syncwarp();".into(),
            },
        }
    }
}

/// The variable a top-level declaration of the kernel body (`auto NAME = …CALL…;`,
/// `cg::thread_block NAME = …`) initializes from `call`, and the offset in `body` just past the
/// declaration's `;`. Only declarations directly in the body (brace depth 1), so the name is in
/// scope for the rest of it.
fn group_declared(body: &str, call: &str) -> Option<(String, usize)> {
    let code = blank_comments(body);
    let mut from = 0;
    while let Some(i) = code[from..].find(call).map(|i| i + from) {
        from = i + call.len();
        let depth = code[..i].matches('{').count() as i64 - code[..i].matches('}').count() as i64;
        if depth != 1 {
            continue;
        }
        let stmt_start = code[..i].rfind([';', '{', '}']).map(|j| j + 1).unwrap_or(0);
        let stmt = &code[stmt_start..i];
        let Some(eq) = stmt.find('=') else { continue };
        let name: String = stmt[..eq]
            .trim_end()
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let Some(semi) = code[i..].find(';') else { continue };
        if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
            return Some((name, i + semi + 1));
        }
    }
    None
}

/// `cg::` (or whatever qualifies it) when the body already synchronizes `name` with the free
/// function `sync(name)`; `None` when it calls `name.sync()` or neither.
fn sync_call_prefix(body: &str, name: &str) -> Option<String> {
    let code = blank_comments(body);
    let needle = format!("sync({name})");
    let i = code.find(&needle)?;
    let before = &code[..i];
    let prefix: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    // `__syncthreads` and the like end in `sync` too, but not in `sync(name)` with a group name
    // before them; a member call (`x.sync(name)`) is not the free function.
    if before.ends_with('.') || before.ends_with("->") || prefix.ends_with('_') {
        return None;
    }
    Some(prefix)
}

/// `text` with comments replaced by spaces (same offsets), so braces and names inside comments
/// do not count.
fn blank_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(' ');
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let end = text[i + 2..].find("*/").map(|j| i + 2 + j + 2).unwrap_or(b.len());
            for c in text[i..end].chars() {
                out.push(if c == '\n' { '\n' } else { ' ' });
                for _ in 1..c.len_utf8() {
                    out.push(' ');
                }
            }
            i = end;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_group_and_its_sync_style() {
        let body = "{\n  cg::thread_block cta = cg::this_thread_block();\n  x = 1;\n  cg::sync(cta);\n}";
        assert_eq!(group_declared(body, "this_thread_block").map(|(n, _)| n), Some("cta".to_string()));
        assert_eq!(sync_call_prefix(body, "cta"), Some("cg::".to_string()));
        let member = "{\n  auto block = cooperative_groups::this_thread_block();\n  block.sync();\n}";
        assert_eq!(group_declared(member, "this_thread_block").map(|(n, _)| n), Some("block".to_string()));
        assert_eq!(sync_call_prefix(member, "block"), None);
        // Inside a nested block the name is not in scope everywhere: not used.
        let nested = "{\n  if (p) { auto b = cg::this_thread_block(); }\n}";
        assert_eq!(group_declared(nested, "this_thread_block"), None);
        // In a comment: not a declaration.
        let commented = "{\n  // auto b = cg::this_thread_block();\n}";
        assert_eq!(group_declared(commented, "this_thread_block"), None);
    }
}
