//! The `autosync` command line: parses arguments, loads kernels through the front ends, runs the
//! oracle and the synthesis, and reports like a compiler (diagnostics on stderr, diffs on stdout).
//! The commands live in `cli/`, one file each.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
