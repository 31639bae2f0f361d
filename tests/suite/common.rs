//! Helpers shared by the golden tests of the CUDA front end (tests/suite/cuda_lower.rs and
//! tests/suite/preprocess.rs).

use autosync::diag::line_col;
use autosync::kpl::Place;

/// One line describing where a barrier after a label would go in `src`, with `line:col`
/// positions (the form the expected `// places:` sections of the golden files use).
pub fn show_place(p: &Place, src: &str) -> String {
    let lc = |o: usize| {
        let (l, c) = line_col(src, o);
        format!("{l}:{c}")
    };
    match p {
        Place::Line { offset, indent } => format!("line @{} indent {:?}", lc(*offset), indent),
        Place::Braced { body_start, body_end, indent, outer_indent } => format!(
            "braced {}..{} indent {:?} outer {:?}",
            lc(*body_start),
            lc(*body_end),
            indent,
            outer_indent
        ),
        Place::Not(why) => format!("not ({why})"),
    }
}
