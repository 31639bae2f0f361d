//! Rendering of benchmark rows: the per-kernel table (plain text for the terminal, Markdown for
//! `latest.md` and the README), the CSV, and the summary the issue asks for (Table II totals,
//! informed-mode oracle calls, kernels where synthesis beats the hand placement, failures).
//!
//! Everything here is a pure function of the rows and the machine description, so a report can
//! be regenerated from the same data and tested without running the oracle.

use super::machine::Machine;
use super::{Method, Outcome, Row};
use crate::config::{CostModel, Ratio};

/// The 18 kernels of the AutoSync paper's Table II, by file stem.
pub const TABLE_II: [&str; 18] = [
    "convolutionColumns",
    "convolutionRows",
    "transpose",
    "imageDenoisingNLM",
    "matrixMul",
    "mergeHistogram256",
    "mergeHistogram64",
    "reduce0",
    "reduce1",
    "reduce2",
    "reduce3",
    "reduce5",
    "reduce6",
    "sobol",
    "sum0",
    "sum1",
    "uniformUpdate",
    "uniformAdd",
];

/// Markers around the generated section of a README; everything between them is replaced.
pub const README_START: &str = "<!-- autosync bench: results start -->";
/// See [`README_START`].
pub const README_END: &str = "<!-- autosync bench: results end -->";

/// The per-kernel table as header and cells (one row per kernel).
pub fn cells(rows: &[Row]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut head: Vec<String> =
        ["suite", "kernel", "LoC", "O-B", "O-cost", "orig ok"].map(String::from).to_vec();
    for m in Method::ALL {
        for c in ["V", "B", "cost", "cpu ms", "wall ms"] {
            head.push(format!("{} {c}", m.name()));
        }
    }
    head.push("notes".into());
    let body = rows
        .iter()
        .map(|r| {
            let mut c = vec![r.suite.clone(), r.name.clone(), r.loc.to_string()];
            match &r.result {
                Err(e) => {
                    c.extend(std::iter::repeat_n("-".to_string(), 3 + 5 * Method::ALL.len()));
                    c.push(format!("load error: {e}"));
                }
                Ok(k) => {
                    c.push(barrier_cell(k.original.barriers, k.original.syncwarps));
                    c.push(k.original.cost.to_string());
                    c.push(if k.original.verified { "yes" } else { "NO" }.into());
                    let mut notes = Vec::new();
                    for m in Method::ALL {
                        match k.get(m) {
                            Outcome::Placed {
                                barriers,
                                syncwarps,
                                cost,
                                oracle_calls,
                                time_ms,
                                cpu_ms,
                                verified,
                            } => {
                                c.extend([
                                    oracle_calls.to_string(),
                                    barrier_cell(*barriers, *syncwarps),
                                    cost.to_string(),
                                    format!("{cpu_ms:.1}"),
                                    format!("{time_ms:.1}"),
                                ]);
                                if !verified {
                                    notes.push(format!("{}: result NOT verified", m.name()));
                                }
                            }
                            Outcome::Failed { error, oracle_calls, time_ms, cpu_ms } => {
                                c.extend([
                                    oracle_calls.to_string(),
                                    "-".into(),
                                    "-".into(),
                                    format!("{cpu_ms:.1}"),
                                    format!("{time_ms:.1}"),
                                ]);
                                notes.push(format!("{}: {error}", m.name()));
                            }
                        }
                    }
                    if let Some(b) = beats(r) {
                        notes.push(b);
                    }
                    c.push(notes.join("; "));
                }
            }
            c
        })
        .collect();
    (head, body)
}

/// A barrier count for the table: `B`, or `B+Ww` when there are warp barriers.
fn barrier_cell(barriers: usize, syncwarps: usize) -> String {
    if syncwarps > 0 {
        format!("{barriers}+{syncwarps}w")
    } else {
        barriers.to_string()
    }
}

/// An aligned plain-text table.
pub fn text_table(rows: &[Row]) -> String {
    let (head, body) = cells(rows);
    let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for r in &body {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            // Names and notes left-aligned, numbers right-aligned.
            if i < 2 || i + 1 == cells.len() {
                s.push_str(&format!("{c:<w$}  "));
            } else {
                s.push_str(&format!("{c:>w$}  "));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&head);
    for r in &body {
        out.push_str(&line(r));
    }
    out
}

/// A Markdown table of the same cells.
pub fn markdown_table(rows: &[Row]) -> String {
    let (head, body) = cells(rows);
    let esc = |s: &String| s.replace('|', "\\|");
    let mut out = format!("| {} |\n", head.iter().map(esc).collect::<Vec<_>>().join(" | "));
    let align: Vec<&str> =
        (0..head.len()).map(|i| if i < 2 || i + 1 == head.len() { "---" } else { "--:" }).collect();
    out.push_str(&format!("|{}|\n", align.join("|")));
    for r in &body {
        out.push_str(&format!("| {} |\n", r.iter().map(esc).collect::<Vec<_>>().join(" | ")));
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV: one line per kernel and method (a load error: one line with method `-`).
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "suite,kernel,path,loc,orig_barriers,orig_cost,orig_verified,method,status,oracle_calls,barriers,cost,cpu_ms,wall_ms,verified,error\n",
    );
    for r in rows {
        let lead = format!(
            "{},{},{},{}",
            csv_field(&r.suite),
            csv_field(&r.name),
            csv_field(&r.path.display().to_string()),
            r.loc
        );
        match &r.result {
            Err(e) => out.push_str(&format!("{lead},,,,-,load_error,,,,,,,{}\n", csv_field(e))),
            Ok(k) => {
                let o = &k.original;
                for m in Method::ALL {
                    let tail = match k.get(m) {
                        Outcome::Placed {
                            barriers, cost, oracle_calls, time_ms, cpu_ms, verified, ..
                        } => {
                            format!("placed,{oracle_calls},{barriers},{cost},{cpu_ms:.3},{time_ms:.3},{verified},")
                        }
                        Outcome::Failed { error, oracle_calls, time_ms, cpu_ms } => {
                            format!(
                                "failed,{oracle_calls},,,{cpu_ms:.3},{time_ms:.3},false,{}",
                                csv_field(error)
                            )
                        }
                    };
                    out.push_str(&format!(
                        "{lead},{},{},{},{},{tail}\n",
                        o.barriers,
                        o.cost,
                        o.verified,
                        m.name()
                    ));
                }
            }
        }
    }
    out
}

/// "fewer barriers …" when the informed result is verified and beats the original in barrier
/// count or cost.
pub fn beats(r: &Row) -> Option<String> {
    let k = r.result.as_ref().ok()?;
    let Outcome::Placed { barriers, cost, verified: true, .. } = k.get(Method::Informed) else { return None };
    let o = &k.original;
    (*barriers < o.barriers || *cost < o.cost).then(|| {
        format!("beats original: {} → {} barrier(s), cost {} → {}", o.barriers, barriers, o.cost, cost)
    })
}

/// Totals of one suite's Table II kernels.
#[derive(Clone, Debug, PartialEq)]
pub struct TableIiTotals {
    pub suite: String,
    /// How many of the 18 were found.
    pub found: usize,
    /// Per method (like [`Method::ALL`]): total CPU and wall-clock time (ms) and whether every
    /// kernel was verified.
    pub cpu_ms: [f64; 3],
    pub time_ms: [f64; 3],
    pub all_verified: [bool; 3],
}

/// Table II totals for every suite holding at least one Table II kernel, in row order.
pub fn table_ii_totals(rows: &[Row]) -> Vec<TableIiTotals> {
    let mut out: Vec<TableIiTotals> = Vec::new();
    for r in rows.iter().filter(|r| TABLE_II.contains(&r.name.as_str())) {
        let pos = match out.iter().position(|t| t.suite == r.suite) {
            Some(p) => p,
            None => {
                out.push(TableIiTotals {
                    suite: r.suite.clone(),
                    found: 0,
                    cpu_ms: [0.0; 3],
                    time_ms: [0.0; 3],
                    all_verified: [true; 3],
                });
                out.len() - 1
            }
        };
        let t = &mut out[pos];
        t.found += 1;
        for (i, m) in Method::ALL.iter().enumerate() {
            match r.outcome(*m) {
                Some(o) => {
                    t.time_ms[i] += o.time_ms();
                    t.cpu_ms[i] += o.cpu_ms();
                    t.all_verified[i] &= o.is_verified();
                }
                None => t.all_verified[i] = false,
            }
        }
    }
    out
}

/// The summary bullets: totals, oracle calls, wins, failures, unverified originals.
pub fn summary(rows: &[Row]) -> String {
    let mut out = String::new();
    let ms = |v: f64| if v >= 1000.0 { format!("{:.2} s", v / 1e3) } else { format!("{v:.0} ms") };
    for t in table_ii_totals(rows) {
        let per: Vec<String> = Method::ALL
            .iter()
            .enumerate()
            .map(|(i, m)| {
                format!(
                    "{} {} CPU / {} wall{}",
                    m.name(),
                    ms(t.cpu_ms[i]),
                    ms(t.time_ms[i]),
                    if t.all_verified[i] { "" } else { " (not all verified)" }
                )
            })
            .collect();
        out.push_str(&format!(
            "- **Table II kernels ({}, {} of 18)**: total synthesis time, summed over the kernels, {} (target: informed < 1 s on 2 cores; the paper: 124.8 s).\n",
            t.suite,
            t.found,
            per.join(", ")
        ));
    }
    // The warp-synchronous suite: how many `__syncwarp()` informed mode placed, and their cost.
    let warp: Vec<(usize, usize, Ratio)> = rows
        .iter()
        .filter(|r| r.suite == crate::bench::WARP_SUITE)
        .filter_map(|r| match r.outcome(Method::Informed) {
            Some(Outcome::Placed { barriers, syncwarps, cost, verified: true, .. }) => {
                Some((*barriers, *syncwarps, cost.clone()))
            }
            _ => None,
        })
        .collect();
    if !warp.is_empty() {
        let all = rows.iter().filter(|r| r.suite == crate::bench::WARP_SUITE).count();
        let syncwarps: usize = warp.iter().map(|w| w.1).sum();
        let barriers: usize = warp.iter().map(|w| w.0).sum();
        let cost = warp.iter().fold(Ratio::new(0, 1), |acc, w| acc.plus(&w.2));
        out.push_str(&format!(
            "- **Warp-synchronous kernels ({}, {} of {all} verified)**: informed mode placed {syncwarps} __syncwarp() and {barriers} __syncthreads(), total cost {cost} (a __syncwarp() costs half a __syncthreads() at the same place).\n",
            crate::bench::WARP_SUITE,
            warp.len()
        ));
    }
    let informed: Vec<(&Row, u64)> = rows
        .iter()
        .filter_map(|r| {
            r.outcome(Method::Informed).filter(|o| o.is_verified()).map(|o| (r, o.oracle_calls()))
        })
        .collect();
    let at_two = informed.iter().filter(|(_, v)| *v <= 2).count();
    let more: Vec<String> = informed
        .iter()
        .filter(|(_, v)| *v > 2)
        .map(|(r, v)| format!("{}/{} ({v})", r.suite, r.name))
        .collect();
    out.push_str(&format!(
        "- **Informed mode oracle calls (V)**: 2 on {at_two} of {} verified kernels{}.\n",
        informed.len(),
        if more.is_empty() { String::new() } else { format!("; more on {}", more.join(", ")) }
    ));
    let sum_v = |m: Method| rows.iter().filter_map(|r| r.outcome(m)).map(Outcome::oracle_calls).sum::<u64>();
    out.push_str(&format!(
        "- **Oracle calls in total**: naive {}, paper {}, informed {}.\n",
        sum_v(Method::Naive),
        sum_v(Method::Paper),
        sum_v(Method::Informed)
    ));
    let wins: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            beats(r).map(|b| format!("{}/{} ({})", r.suite, r.name, b.trim_start_matches("beats original: ")))
        })
        .collect();
    out.push_str(&format!(
        "- **Beat the hand-placed original** (informed, verified; fewer barriers or lower cost): {}.\n",
        if wins.is_empty() { "none".to_string() } else { wins.join("; ") }
    ));
    let worse: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let k = r.result.as_ref().ok()?;
            let Outcome::Placed { barriers, cost, .. } = k.get(Method::Informed) else { return None };
            (*barriers > k.original.barriers || k.original.cost < *cost).then(|| {
                format!(
                    "{}/{} ({} → {} barrier(s), cost {} → {})",
                    r.suite, r.name, k.original.barriers, barriers, k.original.cost, cost
                )
            })
        })
        .collect();
    out.push_str(&format!(
        "- **More barriers or cost than the original** (informed): {}.\n",
        if worse.is_empty() { "none".to_string() } else { worse.join("; ") }
    ));
    let disagree: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let k = r.result.as_ref().ok()?;
            match (k.get(Method::Paper), k.get(Method::Informed)) {
                (Outcome::Placed { cost: a, .. }, Outcome::Placed { cost: b, .. }) if a != b => {
                    Some(format!("{}/{} (paper {a}, informed {b})", r.suite, r.name))
                }
                _ => None,
            }
        })
        .collect();
    if !disagree.is_empty() {
        out.push_str(&format!(
            "- **Paper and informed mode disagree on the cost**: {}.\n",
            disagree.join("; ")
        ));
    }
    let mut failures = Vec::new();
    let mut out_of_reach = Vec::new();
    for r in rows {
        match &r.result {
            Err(e) => failures.push(format!("{}/{}: load error: {e}", r.suite, r.name)),
            Ok(k) => {
                for m in Method::ALL {
                    match k.get(m) {
                        Outcome::Failed { error, .. } if r.out_of_reach(m) => {
                            out_of_reach.push(format!("{}/{} {}: {error}", r.suite, r.name, m.name()))
                        }
                        Outcome::Failed { error, .. } => {
                            failures.push(format!("{}/{} {}: {error}", r.suite, r.name, m.name()))
                        }
                        Outcome::Placed { verified: false, .. } => {
                            failures.push(format!("{}/{} {}: result not verified", r.suite, r.name, m.name()))
                        }
                        Outcome::Placed { .. } => {}
                    }
                }
            }
        }
    }
    if !out_of_reach.is_empty() {
        out.push_str(&format!(
            "- **Out of reach of the one-kind methods** (warp suite: the repair needs `__syncwarp()`, which naive and paper mode do not place): {}.\n",
            out_of_reach.join("; ")
        ));
    }
    out.push_str(&format!(
        "- **Failures**: {}.\n",
        if failures.is_empty() { "none".to_string() } else { failures.join("; ") }
    ));
    let unverified: Vec<String> = rows
        .iter()
        .filter(|r| r.result.as_ref().is_ok_and(|k| !k.original.verified))
        .map(|r| format!("{}/{}", r.suite, r.name))
        .collect();
    out.push_str(&format!(
        "- **Hand-placed originals the oracle does not verify** (a benchmark bug or an oracle false alarm): {}.\n",
        if unverified.is_empty() { "none".to_string() } else { unverified.join(", ") }
    ));
    out
}

/// The whole `latest.md` body: machine, summary, the per-kernel table and the plot (linked as
/// `plot_href`); its section headings have `heading` `#`s (2 for a file of its own, 3 inside the
/// README's "Results").
pub fn markdown(
    rows: &[Row],
    machine: &Machine,
    cost: &CostModel,
    plot_href: &str,
    heading: usize,
) -> String {
    let ratio = |r: Ratio| r.to_string();
    let h = "#".repeat(heading.max(1));
    format!(
        "Generated by `autosync bench` on {} — {} ({} cores, {} worker threads{}).\n\n\
         Each kernel's hand-placed barriers are stripped, then the naive baseline, `paper` mode and `informed` mode \
         synthesize a placement; every result is checked by a fresh oracle. \
         V: oracle calls; B: barriers; O-B / O-cost: the hand-placed original; cost: Σ LC^loops × IC^conds with LC = {}, IC = {}; \
         cpu ms / wall ms: CPU time of the thread that ran it and wall-clock time, per kernel and method (oracle set-up and synthesis, verification excluded; \
         kernels run in parallel, so wall-clock includes waiting for a core). \
         LoC: non-blank, non-comment lines of the file.\n\n\
         {h} Summary\n\n{}\n{h} Per kernel\n\n{}\n![time and oracle calls per kernel]({plot_href})\n",
        machine.date,
        machine.cpu,
        machine.cores,
        machine.threads,
        machine.load.as_ref().map(|l| format!("; 1-minute load average {l} at the end, its own threads included")).unwrap_or_default(),
        ratio(cost.loop_factor.clone()),
        ratio(cost.cond_factor.clone()),
        summary(rows),
        markdown_table(rows),
    )
}

/// `readme` with the text between [`README_START`] and [`README_END`] replaced by `section`.
///
/// Errors: the markers are missing or out of order.
pub fn splice_readme(readme: &str, section: &str) -> Result<String, String> {
    let start = readme.find(README_START).ok_or_else(|| format!("no `{README_START}` marker"))?;
    let end = readme
        .find(README_END)
        .filter(|e| *e > start)
        .ok_or_else(|| format!("no `{README_END}` marker after the start marker"))?;
    Ok(format!("{}{README_START}\n{section}{}", &readme[..start], &readme[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{KernelResult, Original};
    use std::path::PathBuf;

    fn row(name: &str, informed: Outcome) -> Row {
        let placed = |v| Outcome::Placed {
            barriers: 1,
            syncwarps: 0,
            cost: Ratio::new(100, 1),
            oracle_calls: v,
            time_ms: 5.0,
            cpu_ms: 5.0,
            verified: true,
        };
        Row {
            suite: "plain".into(),
            name: name.into(),
            path: PathBuf::from(format!("{name}.cu")),
            loc: 10,
            result: Ok(KernelResult {
                original: Original { barriers: 2, syncwarps: 0, cost: Ratio::new(101, 1), verified: true },
                methods: [placed(9), placed(3), informed],
            }),
        }
    }

    #[test]
    fn summary_lists_wins_and_failures() {
        let ok = Outcome::Placed {
            barriers: 1,
            syncwarps: 0,
            cost: Ratio::new(100, 1),
            oracle_calls: 2,
            time_ms: 4.0,
            cpu_ms: 4.0,
            verified: true,
        };
        let failed = Outcome::Failed { error: "gave up".into(), oracle_calls: 7, time_ms: 1.0, cpu_ms: 1.0 };
        let rows = vec![row("reduce0", ok), row("other", failed)];
        let s = summary(&rows);
        assert!(s.contains("plain/reduce0 (2 → 1 barrier(s), cost 101 → 100)"), "{s}");
        assert!(s.contains("plain/other informed: gave up"), "{s}");
        assert!(s.contains("(plain, 1 of 18)"), "{s}");
        assert!(s.contains("informed 4 ms CPU / 4 ms wall (target"), "{s}");
        let t = table_ii_totals(&rows);
        assert_eq!(t[0].time_ms, [5.0, 5.0, 4.0]);
        assert_eq!(csv(&rows).lines().count(), 1 + 6);
    }

    #[test]
    fn a_one_kind_method_failing_on_the_warp_suite_is_out_of_reach_not_a_failure() {
        let failed =
            || Outcome::Failed { error: "no placement".into(), oracle_calls: 3, time_ms: 1.0, cpu_ms: 1.0 };
        let mut warp = row("tail", failed());
        warp.suite = crate::bench::WARP_SUITE.into();
        if let Ok(k) = &mut warp.result {
            k.methods[1] = failed();
        }
        // Paper mode cannot place `__syncwarp()`: out of its reach. Informed mode can: a failure.
        assert!(warp.out_of_reach(Method::Paper));
        assert!(!warp.out_of_reach(Method::Informed));
        assert!(!row("tail", failed()).out_of_reach(Method::Informed));
        let s = summary(&[warp]);
        assert!(s.contains("- **Out of reach of the one-kind methods** (warp suite"), "{s}");
        assert!(s.contains("warp/tail paper: no placement."), "{s}");
        assert!(s.contains("- **Failures**: warp/tail informed: no placement."), "{s}");
    }

    #[test]
    fn readme_splice_replaces_only_the_section() {
        let r = format!("a\n{README_START}\nold\n{README_END}\nb\n");
        assert_eq!(splice_readme(&r, "new\n"), Ok(format!("a\n{README_START}\nnew\n{README_END}\nb\n")));
        assert!(splice_readme("no markers", "x").is_err());
    }

    #[test]
    fn csv_quotes_commas() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("a\"b"), "\"a\"\"b\"");
        assert_eq!(csv_field("ab"), "ab");
    }
}
