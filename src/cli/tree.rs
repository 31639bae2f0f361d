//! `autosync tree`: the label tree of each kernel of a file.

use super::{Failure, LaunchArgs};
use autosync::config::Config;
use autosync::driver::load::load;
use autosync::kpl::{self, Kernel, LabelTree, NodeKind, Place, StmtKind, WriteMode};
use autosync::synth;
use clap::Args;
use std::path::PathBuf;

/// Options of `autosync tree`.
#[derive(Args)]
pub struct TreeArgs {
    /// The kernel file (.kpl or .cu)
    file: PathBuf,
    #[command(flatten)]
    launch: LaunchArgs,
}

/// Prints the label tree of every kernel of the file; exit 0.
pub fn run(args: TreeArgs, config: &Config) -> Result<u8, Failure> {
    let loaded = load(&args.file, &args.launch.options(), config)?;
    for w in &loaded.warnings {
        eprint!("{w}");
    }
    for k in &loaded.kernels {
        print!("{}", render_tree(k, config));
    }
    Ok(0)
}

/// The label tree as an indented table.
fn render_tree(k: &Kernel, config: &Config) -> String {
    let tree = LabelTree::new(k);
    let model = config.cost_model();
    let mut rows: Vec<[String; 5]> = Vec::new();
    let stmts = k.stmt_index();
    let stmt = |l: kpl::Label| stmts.get(l.0 as usize).copied().flatten();
    #[allow(clippy::too_many_arguments)]
    fn visit<'k>(
        k: &Kernel,
        stmt: &dyn Fn(kpl::Label) -> Option<&'k kpl::Stmt>,
        tree: &LabelTree,
        l: kpl::Label,
        depth: usize,
        rows: &mut Vec<[String; 5]>,
        model: &autosync::config::CostModel,
    ) {
        let kind = tree.kind(l);
        let what = match kind {
            Some(NodeKind::Main) => "block".to_string(),
            Some(NodeKind::Start(_)) => "start".to_string(),
            Some(NodeKind::If) => "if".to_string(),
            Some(NodeKind::Else(_)) => "else".to_string(),
            Some(NodeKind::While) => "while".to_string(),
            Some(NodeKind::Leaf) => match stmt(l).map(|s| &s.kind) {
                Some(StmtKind::Read { .. }) => "read",
                Some(StmtKind::Write { mode: WriteMode::Async, .. }) => "copy",
                Some(StmtKind::Write { mode: WriteMode::Warp, .. }) => "warp write",
                Some(StmtKind::Write { .. }) => "write",
                Some(StmtKind::Commit) => "commit",
                Some(StmtKind::Wait { .. } | StmtKind::WaitOldest) => "wait",
                Some(StmtKind::Release) => "release",
                Some(StmtKind::Atomic { .. }) => "atomic",
                Some(StmtKind::Barrier) => "barrier",
                Some(StmtKind::Syncwarp) => "syncwarp",
                Some(StmtKind::Gridsync) => "gridsync",
                Some(StmtKind::NamedBarrier { wait: true, .. }) => "bar sync",
                Some(StmtKind::NamedBarrier { wait: false, .. }) => "bar arrive",
                Some(StmtKind::NamedWait { .. }) => "bar wait",
                Some(StmtKind::Assume { .. }) => "assume",
                Some(StmtKind::Local { .. }) => "local",
                _ => "assign",
            }
            .to_string(),
            None => "?".to_string(),
        };
        let (place, cost) = match k.place(l) {
            Place::Not(why) if why.is_empty() => ("no".to_string(), "-".to_string()),
            Place::Not(why) => (format!("no ({why})"), "-".to_string()),
            _ => ("yes".to_string(), synth::barrier_cost(k, tree, model, l).to_string()),
        };
        // Compound statements show their header without the opening brace.
        let text = stmt(l)
            .map(|s| kpl::printer::statement_head(s).trim_end_matches(" {").to_string())
            .unwrap_or_default();
        rows.push([format!("{}{}", "  ".repeat(depth), k.label_name(l)), what, place, cost, text]);
        for c in tree.children(l) {
            visit(k, stmt, tree, *c, depth + 1, rows, model);
        }
    }
    visit(k, &stmt, &tree, kpl::Label::MAIN, 0, &mut rows, &model);
    let headers = ["label", "kind", "barrier after", "cost", "statement"];
    let mut widths = headers.map(str::len);
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = format!("kernel {} — label tree (post-order is program-text order)\n", k.name);
    let line = |cells: [&str; 5]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i == 4 {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  ", w = widths[i]));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    out.push_str(&line(headers));
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    out
}
