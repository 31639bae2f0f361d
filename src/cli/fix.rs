//! `autosync fix`: synthesize the cheapest barrier placement for a file's kernels, patch the
//! file atomically and print the diff.

use super::load::{load, oracle_for, Loaded};
use super::report::{label_map, race_diagnostic, report_unfixable, stmt_span};
use super::{Failure, Format, LaunchArgs, EXIT_FINDINGS};
use autosync::config::{Config, Mode, Solver};
use autosync::diag::Severity;
use autosync::kpl::{self, Kernel, Place};
use autosync::maxsat::Engine;
use autosync::synth::{self, SynthOptions, Synthesis};
use clap::Args;
use std::path::PathBuf;

/// Options of `autosync fix`.
#[derive(Args)]
pub struct FixArgs {
    /// The kernel file (.cu or .kpl)
    file: PathBuf,
    #[command(flatten)]
    launch: LaunchArgs,
    #[command(flatten)]
    flags: FixFlags,
}

/// What `fix` does with the result, how it reports, and how it synthesizes.
#[derive(Args)]
struct FixFlags {
    /// Print the diff, write nothing
    #[arg(long)]
    diff: bool,
    /// Write the result here instead of in place
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Write nothing; exit 1 if a barrier would be added (for CI)
    #[arg(long)]
    check: bool,
    /// List each inserted barrier with its cost and the races it separates
    #[arg(long)]
    explain: bool,
    /// Print oracle calls, MaxSAT calls, iterations and times
    #[arg(long)]
    stats: bool,
    /// Make the kernel's own barriers removable and drop the redundant ones
    #[arg(long)]
    reoptimize: bool,
    /// Synthesis mode (default from the config: informed)
    #[arg(long, value_enum)]
    mode: Option<Mode>,
    /// MaxSAT engine (default from the config: minisat)
    #[arg(long, value_enum)]
    solver: Option<Solver>,
    /// Use the naive baseline (a barrier everywhere, then remove one at a time)
    #[arg(long)]
    naive: bool,
    /// Treat benign write-write races as errors
    #[arg(long)]
    strict: bool,
    /// Output format of the report
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

/// Fixes the file; exit 1 when no placement exists (nothing written) or `--check` finds a change.
pub fn run(args: FixArgs, config: &Config) -> Result<u8, Failure> {
    let FixArgs { file, launch, flags } = args;
    let loaded = load(&file, &launch, config)?;
    let opts = SynthOptions {
        mode: flags.mode.unwrap_or(config.synthesis.mode),
        engine: match flags.solver.unwrap_or(config.synthesis.solver) {
            Solver::Minisat => Engine::Minisat,
            Solver::Z3 => Engine::Z3,
        },
        reoptimize: flags.reoptimize || config.synthesis.reoptimize,
        max_iterations: config.synthesis.max_iterations,
        cost: config.cost_model(),
    };
    fix(&loaded, &opts, config, flags)
}

fn fix(loaded: &Loaded, opts: &SynthOptions, config: &Config, flags: FixFlags) -> Result<u8, Failure> {
    let barrier_text = if loaded.is_cuda { "__syncthreads();" } else { "barrier;" };
    let mut inserts: Vec<(usize, kpl::Label)> = Vec::new();
    let mut removes: Vec<(usize, kpl::Label)> = Vec::new();
    let mut impossible = false;
    let mut json = Vec::new();
    let groups = sharing_groups(&loaded.kernels);
    let mut results: Vec<Option<(Synthesis, synth::SynthStats)>> = vec![None; loaded.kernels.len()];
    if !flags.naive {
        for group in &groups {
            let members: Vec<Kernel> = group.iter().map(|i| loaded.kernels[*i].clone()).collect();
            let mut oracle = oracle_for(&members[0], config, flags.strict);
            let (res, st) = synth::synthesize_group(&members, &mut oracle, opts)
                .map_err(|e| Failure::Usage(format!("{}: {e}", loaded.name)))?;
            for (i, r) in group.iter().zip(res) {
                results[*i] = Some((r, st));
            }
        }
    } else if let Some(g) = groups.iter().find(|g| g.len() > 1) {
        let names: Vec<&str> = g.iter().map(|i| loaded.kernels[*i].name.as_str()).collect();
        return Err(Failure::Usage(format!(
            "{}: --naive handles one kernel at a time, but kernels {} share source text (a template or a device function)",
            loaded.name,
            names.join(", ")
        )));
    }
    for (ki, k) in loaded.kernels.iter().enumerate() {
        if flags.naive {
            let mut oracle = oracle_for(k, config, flags.strict);
            let (res, st) = synth::naive(k, &mut oracle, opts);
            match res {
                Some((_, chosen, cost)) => {
                    if flags.stats {
                        eprintln!("{}: kernel `{}` (naive): {} barrier(s), cost {cost}, oracle calls {}, time {:.1} ms", loaded.name, k.name, chosen.len(), st.oracle_calls, st.total_time.as_secs_f64() * 1e3);
                    }
                    inserts.extend(chosen.into_iter().map(|l| (ki, l)));
                }
                None => impossible = true,
            }
            continue;
        }
        let Some((result, st)) = results[ki].take() else { continue };
        if flags.stats {
            eprintln!(
                "{}: kernel `{}`: oracle calls {}, MaxSAT calls {}, iterations {}, SMT queries {}, oracle {:.1} ms, MaxSAT {:.1} ms, total {:.1} ms",
                loaded.name, k.name, st.oracle_calls, st.maxsat_calls, st.iterations, st.smt_queries,
                st.oracle_time.as_secs_f64() * 1e3, st.maxsat_time.as_secs_f64() * 1e3, st.total_time.as_secs_f64() * 1e3
            );
        }
        match result {
            Synthesis::Done { inserted, removed, cost, warnings, .. } => {
                for r in &warnings.benign {
                    let d = race_diagnostic(k, r, Severity::Warning)
                        .with_note("both threads write the same value (benign; an error under --strict)");
                    eprint!("{}", d.render(&loaded.name, &loaded.source));
                }
                if flags.explain {
                    for ins in &inserted {
                        let races: Vec<String> = ins
                            .separates
                            .iter()
                            .map(|(a, b)| format!("{}–{}", k.label_name(*a), k.label_name(*b)))
                            .collect();
                        // The line the new barrier follows in the source.
                        let at = match k.place(ins.after) {
                            Place::Line { offset, .. } => *offset,
                            Place::Braced { body_end, .. } => *body_end,
                            Place::Not(_) => stmt_span(k, ins.after).end,
                        };
                        let line = autosync::diag::line_col(&loaded.source, at.saturating_sub(1)).0;
                        eprintln!(
                            "  barrier after `{}` (line {line}): cost {}, separates {}",
                            k.label_name(ins.after),
                            ins.cost,
                            if races.is_empty() { "-".to_string() } else { races.join(", ") }
                        );
                    }
                    for r in &removed {
                        eprintln!("  redundant original barrier `{}` removed", k.label_name(*r));
                    }
                    eprintln!("  total cost {cost}");
                }
                json.push(serde_json::json!({"kernel": k.name, "inserted": inserted, "removed": removed, "cost": cost.to_string(), "stats": st, "labels": label_map(k)}));
                inserts.extend(inserted.iter().map(|i| (ki, i.after)));
                removes.extend(removed.iter().map(|r| (ki, *r)));
            }
            Synthesis::Impossible { reasons } => {
                impossible = true;
                if reasons.is_empty() {
                    eprintln!(
                        "error: {}: kernel `{}`: no placement exists for the kernels that share its source text",
                        loaded.name, k.name
                    );
                }
                for u in &reasons {
                    report_unfixable(loaded, k, u);
                }
                json.push(
                    serde_json::json!({"kernel": k.name, "impossible": reasons, "labels": label_map(k)}),
                );
            }
            Synthesis::GaveUp { iterations } => {
                impossible = true;
                eprintln!(
                    "error: {}: kernel `{}`: gave up after {iterations} refinement iterations",
                    loaded.name, k.name
                );
            }
        }
    }
    if flags.format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
    }
    if impossible {
        eprintln!(
            "error: {}: no barrier placement makes this file correctly synchronized; nothing written",
            loaded.name
        );
        return Ok(EXIT_FINDINGS);
    }
    // One patch of the file for all kernels; kernels sharing source text ask for the same edits.
    let per_kernel: Vec<(Vec<kpl::Label>, Vec<kpl::Label>)> = (0..loaded.kernels.len())
        .map(|ki| {
            let pick =
                |v: &[(usize, kpl::Label)]| v.iter().filter(|(i, _)| *i == ki).map(|(_, l)| *l).collect();
            (pick(&inserts), pick(&removes))
        })
        .collect();
    let parts: Vec<autosync::patch::KernelEdits> = loaded
        .kernels
        .iter()
        .zip(&per_kernel)
        .map(|(kernel, (after, remove))| autosync::patch::KernelEdits { kernel, after, remove })
        .collect();
    let text = autosync::patch::apply_all(&loaded.source, &parts, barrier_text)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let changed = text != loaded.source;
    let diff = autosync::patch::unified_diff(&loaded.source, &text, &loaded.name);
    if flags.format == Format::Human {
        print!("{diff}");
    }
    if flags.check {
        if changed && flags.format == Format::Human {
            eprintln!("{}: barriers are missing (run `autosync fix {}`)", loaded.name, loaded.name);
        }
        return Ok(if changed { EXIT_FINDINGS } else { 0 });
    }
    if flags.diff {
        return Ok(0);
    }
    let target = flags.output.clone().unwrap_or_else(|| loaded.path.clone());
    if changed || flags.output.is_some() {
        autosync::patch::write_atomic(&target, &text).map_err(|e| Failure::Usage(e.to_string()))?;
    }
    if flags.format == Format::Human {
        let n = inserts.len();
        if changed {
            eprintln!(
                "{}: inserted {n} barrier(s){}, wrote {}",
                loaded.name,
                if removes.is_empty() { String::new() } else { format!(", removed {}", removes.len()) },
                target.display()
            );
        } else {
            eprintln!("{}: already correctly synchronized; nothing to change", loaded.name);
        }
    }
    Ok(0)
}

/// The kernels of a file grouped by shared barrier positions: two kernels are in one group when
/// some source position can take a barrier in both (template instantiations, kernels inlining one
/// device function). Groups and their members are in file order.
fn sharing_groups(kernels: &[Kernel]) -> Vec<Vec<usize>> {
    let mut owner: std::collections::HashMap<&Place, usize> = std::collections::HashMap::new();
    let mut parent: Vec<usize> = (0..kernels.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (ki, k) in kernels.iter().enumerate() {
        for p in k.places.iter().filter(|p| p.is_placeable()) {
            let other = *owner.entry(p).or_insert(ki);
            let (a, b) = (root(&mut parent, other), root(&mut parent, ki));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index_of: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for ki in 0..kernels.len() {
        let r = root(&mut parent, ki);
        let gi = *index_of.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[gi].push(ki);
    }
    groups
}
