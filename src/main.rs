//! The `autosync` command line.

use autosync::config::Config;
use autosync::diag::{Diagnostic, Severity};
use autosync::kpl::{self, Kernel, LabelTree, NodeKind, Place, StmtKind};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit codes are stable: 0 ok, 1 races/divergence remain or a change is needed, 2 bad input.
const EXIT_FINDINGS: u8 = 1;
const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser)]
#[command(
    name = "autosync",
    version,
    about = "Finds the races and divergent barriers of GPU kernels and inserts the cheapest set of __syncthreads() that removes them.",
    long_about = None,
    after_help = "Exit codes: 0 ok, 1 races or divergence remain (or --check found a change), 2 bad input or usage.\nKernels: CUDA (.cu) or the core language KPL (.kpl, see docs/kpl.md)."
)]
struct Cli {
    /// Configuration file (default: the built-in config/default.yaml)
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the label tree of a KPL kernel: labels, nesting, placeability and the cost of a
    /// barrier after each label.
    Tree {
        /// The kernel file (.kpl)
        file: PathBuf,
    },
}

/// A failure that ends the command with a message.
enum Failure {
    /// Bad input: the diagnostic is rendered against the file.
    Input { file: String, source: String, diag: Box<Diagnostic> },
    /// Bad usage or an unreadable file.
    Usage(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Failure::Input { file, source, diag }) => {
            eprint!("{}", diag.render(&file, &source));
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Err(Failure::Usage(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

fn run(cli: Cli) -> Result<u8, Failure> {
    let config = match &cli.config {
        Some(path) => Config::load(path).map_err(|e| Failure::Usage(e.to_string()))?,
        None => Config::default_config(),
    };
    match cli.command {
        Command::Tree { file } => {
            let (kernel, _) = load_kpl(&file)?;
            print!("{}", render_tree(&kernel, &config));
            Ok(0)
        }
    }
}

fn read(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))
}

fn load_kpl(path: &Path) -> Result<(Kernel, String), Failure> {
    let source = read(path)?;
    match kpl::parse(&source) {
        Ok(k) => Ok((k, source)),
        Err(diag) => Err(Failure::Input { file: path.display().to_string(), source, diag: Box::new(diag) }),
    }
}

/// The label tree as an indented table.
fn render_tree(k: &Kernel, config: &Config) -> String {
    let tree = LabelTree::new(k);
    let model = config.cost_model();
    let mut rows: Vec<[String; 5]> = Vec::new();
    fn visit(
        k: &Kernel,
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
            Some(NodeKind::Leaf) => match k.stmt(l).map(|s| &s.kind) {
                Some(StmtKind::Read { .. }) => "read",
                Some(StmtKind::Write { .. }) => "write",
                Some(StmtKind::Atomic { .. }) => "atomic",
                Some(StmtKind::Barrier) => "barrier",
                Some(StmtKind::Local { .. }) => "local",
                _ => "assign",
            }
            .to_string(),
            None => "?".to_string(),
        };
        let (place, cost) = match k.place(l) {
            Place::Not(why) if why.is_empty() => ("no".to_string(), "-".to_string()),
            Place::Not(why) => (format!("no ({why})"), "-".to_string()),
            _ => ("yes".to_string(), model.cost(tree.loops(l).len(), tree.conds(l).len()).to_string()),
        };
        let text = k
            .stmt(l)
            .map(|s| match &s.kind {
                StmtKind::If { cond, .. } => format!("if ({})", kpl::printer::expr(cond)),
                StmtKind::While { cond, .. } => format!("while ({})", kpl::printer::expr(cond)),
                _ => {
                    let mut one =
                        Kernel { body: kpl::Block { stmts: vec![s.clone()], ..k.body.clone() }, ..k.clone() };
                    one.arrays.clear();
                    let printed = kpl::print(&one);
                    printed
                        .lines()
                        .nth(if k.geometry == Default::default() { 1 } else { 2 })
                        .unwrap_or("")
                        .trim()
                        .to_string()
                }
            })
            .unwrap_or_default();
        rows.push([format!("{}{}", "  ".repeat(depth), k.label_name(l)), what, place, cost, text]);
        for c in tree.children(l) {
            visit(k, tree, *c, depth + 1, rows, model);
        }
    }
    visit(k, &tree, kpl::Label::MAIN, 0, &mut rows, &model);
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
    let _ = Severity::Note;
    out
}
