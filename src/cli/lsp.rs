//! `autosync lsp`: the language server (`autosync::lsp`) on stdin/stdout.

use super::{parse_seconds, Failure, LaunchArgs};
use autosync::config::Config;
use autosync::driver::Budget;
use autosync::lsp::{Ended, Settings};
use clap::Args;
use std::path::PathBuf;

/// Options of `autosync lsp`: those of `check` that say how a file is analysed.
#[derive(Args)]
#[command(after_long_help = "\
How an editor starts it: as a command whose stdin and stdout carry the Language Server Protocol
(JSON-RPC with Content-Length headers): `autosync lsp`, or with the options `check` takes,
`autosync lsp --config autosync.yaml -p build`. The editor's LSP client (VS Code with a generic
LSP client extension, Neovim's `vim.lsp.start`, Helix, Emacs eglot; README \"In the editor\")
starts it for CUDA (.cu, .cuh) and KPL (.kpl) files; nothing but the protocol is printed on
stdout.

What it does:
  diagnostics   `check`'s findings on the editor's text (saved or not) when a file is opened or
                saved, and 300 ms after typing stops; the code is the rule (`data-race`,
                `barrier-divergence`, `out-of-bounds`, ...), a race's two accesses are related
                locations, a text that does not parse is one diagnostic where it stops
  quick fixes   per fixable finding, the barriers `fix` inserts for it; per file,
                \"autosync: insert all barriers\" (what `fix` writes); the editor applies the
                edit, the server never writes files
  flags         -I/-D/--block-dim/... as given here, plus the compile_commands.json entry of each
                file (-p DIR, else the nearest one above the file), like `check`

Exit status: 0 after the client's `shutdown` then `exit`, 1 when the input ends (or `exit`
comes) without `shutdown`, 2 when the server cannot start.")]
pub struct LspArgs {
    #[command(flatten)]
    launch: LaunchArgs,
    /// Directory holding compile_commands.json (or the file itself); without it, the nearest
    /// compile_commands.json above each file is used. Its -I, -isystem and -D flags apply
    #[arg(short = 'p', long = "build-path", value_name = "DIR")]
    build_path: Option<PathBuf>,
    /// Wall time per kernel in seconds (default: the config's verifier.kernel_timeout_s)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<f64>,
    /// Treat benign write-write races as errors
    #[arg(long)]
    strict: bool,
}

/// Serves until the client exits; the exit status follows the protocol (0 only after `shutdown`).
pub fn run(args: LspArgs, config: &Config) -> Result<u8, Failure> {
    let secs = args.timeout.unwrap_or(config.verifier.kernel_timeout_s);
    let settings = Settings {
        launch: args.launch.options(),
        build_path: args.build_path,
        config: config.clone(),
        budget: Budget(std::time::Duration::from_secs_f64(secs)),
        strict: args.strict,
    };
    match autosync::lsp::serve_stdio(settings) {
        Ok(Ended::Clean) => Ok(0),
        Ok(Ended::Abrupt) => Ok(1),
        Err(e) => Err(Failure::Usage(e.to_string())),
    }
}
