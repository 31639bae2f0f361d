//! The `autosync` command line: parses arguments, loads kernels through the front ends, runs the
//! oracle and the synthesis, and reports like a compiler (diagnostics on stderr, diffs on stdout).
//! The commands live in `cli/`, one file each.

mod cli;

fn main() -> std::process::ExitCode {
    // Like other Unix filters, end quietly when the reader of stdout goes away (`check … | head`)
    // instead of panicking on the failed write: Rust ignores SIGPIPE unless told otherwise.
    // SAFETY: called before any other thread exists; SIG_DFL is a valid disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    cli::main()
}
