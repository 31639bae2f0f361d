//! The progress bar of `autosync bench`: on stderr, and only when stderr is a terminal (so logs
//! and CI output stay clean).

use super::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// An indicatif bar counting finished steps (original checks and syntheses); hidden when stderr is not a terminal.
pub struct Bar {
    bar: ProgressBar,
}

impl Bar {
    /// A bar on stderr if it is a terminal, else a hidden one.
    pub fn stderr() -> Bar {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} steps  {elapsed}  {msg}") {
            bar.set_style(style);
        }
        Bar { bar }
    }
    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn start(&self, total: usize) {
        self.bar.set_length(total as u64);
    }
    fn done(&self, what: &str) {
        self.bar.set_message(what.to_string());
        self.bar.inc(1);
    }
}
