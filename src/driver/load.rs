//! Loading a kernel file: reading it, the front end for its kind, and the launch geometry
//! (command line over the file's header over the configuration).
//!
//! [`load`] guarantees: every kernel it returns has its geometry settled by that precedence; a
//! file without kernels, with bad bytes or outside the supported language is a [`Failure`]
//! (located when the front end can say where), never a panic.

use super::{Budget, Failure, LaunchOptions};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::kpl::{self, Geometry, Kernel};
use crate::verify::{OracleOptions, Z3Oracle};
use std::path::{Path, PathBuf};

/// A loaded source file and its kernels.
pub struct Loaded {
    /// The path as given.
    pub path: PathBuf,
    /// The path as diagnostics show it.
    pub name: String,
    /// The file's text.
    pub source: String,
    /// Its kernels with their launch geometry settled.
    pub kernels: Vec<Kernel>,
    /// Whether the CUDA front end read it (else KPL).
    pub is_cuda: bool,
    /// The file as read (`source` is its text): what `fix` needs to write it back byte-exactly.
    pub input: crate::source::Input,
    /// The front end's warnings, rendered against the file (for stderr).
    pub warnings: Vec<String>,
    /// One error per kernel the CUDA front end refuses (not in `kernels`): see
    /// [`crate::cuda::LoweredFile::refused`]. Empty from [`load`].
    pub refused: Vec<Diagnostic>,
}

/// The file at `path`, read by [`crate::source::read`] (regular files only, size limit, BOM,
/// stray bytes inside comments and literals; other bad bytes are a located error).
pub fn read(path: &Path) -> Result<crate::source::Input, Failure> {
    crate::source::read(path).map_err(|e| match e {
        crate::source::SourceError::Bytes { path, text, diag } => {
            Failure::Input { file: path, source: text, diag }
        }
        e => Failure::Usage(e.to_string()),
    })
}

pub(super) fn parse_dims_arg(s: &str, what: &str) -> Result<[u32; 3], Failure> {
    kpl::header::parse_dims(s, kpl::Span::default()).map_err(|_| {
        Failure::Usage(format!("invalid {what} `{s}`: expected 1 to 3 positive numbers, e.g. 256 or 16,16"))
    })
}

/// Reads and lowers the file at `path` with the launch options; a bad file is a located
/// `Failure::Input`, and so is a kernel the front end refuses.
pub fn load(path: &Path, launch: &LaunchOptions, config: &Config) -> Result<Loaded, Failure> {
    let loaded = load_partial(path, launch, config)?;
    match merged(&loaded.refused, &loaded.name, &loaded.source) {
        Some(d) => Err(Failure::Input { file: loaded.name, source: loaded.source, diag: Box::new(d) }),
        None => Ok(loaded),
    }
}

/// The refusals of several kernels as one error: the first, with the others' locations as
/// secondary ones and their notes (which name their kernels). A refusal located in another
/// file than the first (a kernel of an included header, [`Diagnostic::file`]) is a note with
/// its `file:line:col`; `name` and `source` are the input's.
pub fn merged(refused: &[Diagnostic], name: &str, source: &str) -> Option<Diagnostic> {
    let (first, rest) = refused.split_first()?;
    let mut d = first.clone();
    for r in rest {
        if r.file != first.file {
            d = d.with_note(format!("{}: {}", r.location(name, source), r.message));
        } else {
            if let Some(s) = r.span {
                d = d.with_secondary(s, r.message.clone());
            }
            d.secondary.extend(r.secondary.iter().cloned());
        }
        d.notes.extend(r.notes.iter().filter(|n| n.starts_with("kernel `")).cloned());
    }
    Some(d)
}

/// Like [`load`], but a kernel the front end refuses is in [`Loaded::refused`] and the others
/// are loaded (`kernels` may then be empty). A file without any kernel is
/// [`Failure::NoKernel`].
pub fn load_partial(path: &Path, launch: &LaunchOptions, config: &Config) -> Result<Loaded, Failure> {
    let file = read(path)?;
    let source = file.text.clone();
    let name = path.display().to_string();
    let (kernels, warnings, refused) = lower_source_partial(path, &source, launch, config)?;
    let is_cuda = is_cuda_path(path);
    Ok(Loaded { path: path.to_path_buf(), name, source, kernels, is_cuda, input: file, warnings, refused })
}

/// The kernels of `source`, the text of the file at `path` (its extension picks the front end),
/// with their launch geometry settled (launch options over the file's header over the
/// configuration), and the front end's warnings rendered against the file.
pub fn lower_source(
    path: &Path,
    source: &str,
    launch: &LaunchOptions,
    config: &Config,
) -> Result<(Vec<Kernel>, Vec<String>), Failure> {
    let (kernels, warnings, refused) = lower_source_partial(path, source, launch, config)?;
    match merged(&refused, &path.display().to_string(), source) {
        Some(d) => Err(Failure::Input {
            file: path.display().to_string(),
            source: source.to_string(),
            diag: Box::new(d),
        }),
        None => Ok((kernels, warnings)),
    }
}

/// The kernels lowered, the front end's warnings (rendered) and one error per refused kernel.
pub type Partial = (Vec<Kernel>, Vec<String>, Vec<Diagnostic>);

/// Like [`lower_source`], with the kernels the front end refuses apart (one error each).
pub fn lower_source_partial(
    path: &Path,
    source: &str,
    launch: &LaunchOptions,
    config: &Config,
) -> Result<Partial, Failure> {
    let name = path.display().to_string();
    let lowered = lower_text(path, source, launch, config)?;
    let warnings = lowered.warnings.iter().map(|w| w.render(&name, source)).collect();
    Ok((lowered.kernels, warnings, lowered.refused))
}

/// What the front end made of a text: the kernels lowered (geometry settled), its warnings and
/// one error per refused kernel, all as diagnostics located in the text.
pub struct Lowered {
    /// The kernels lowered, with their launch geometry settled.
    pub kernels: Vec<Kernel>,
    /// The front end's warnings, unrendered (spans into the text).
    pub warnings: Vec<Diagnostic>,
    /// One error per kernel the front end refused.
    pub refused: Vec<Diagnostic>,
}

/// Like [`lower_source_partial`], with the warnings as diagnostics rather than rendered text:
/// what a client that shows locations itself (an editor) needs.
pub fn lower_text(
    path: &Path,
    source: &str,
    launch: &LaunchOptions,
    config: &Config,
) -> Result<Lowered, Failure> {
    let source = source.to_string();
    let name = path.display().to_string();
    let input = |diag: Diagnostic| Failure::Input {
        file: name.clone(),
        source: source.clone(),
        diag: Box::new(diag),
    };
    let is_cuda = is_cuda_path(path);
    let mut warnings = Vec::new();
    let mut refused = Vec::new();
    let mut kernels = if is_cuda {
        let options = launch.front_end(path)?;
        let file = crate::cuda::lower_file(&source, &options).map_err(input)?;
        warnings = file.warnings;
        refused = file.refused;
        file.kernels
    } else if !launch.include_dirs.is_empty()
        || !launch.defines.is_empty()
        || !launch.template_arg.is_empty()
        || !launch.assume.is_empty()
    {
        return Err(Failure::Usage(format!(
            "{name}: `-I`, `-D`, `--template-arg` and `--assume` apply to CUDA files only"
        )));
    } else {
        let is_kpl = path.extension().is_some_and(|e| e == "kpl");
        vec![kpl::parse(&source).map_err(|d| {
            // A CUDA file with another extension (.cpp, .h, .txt) fails as KPL in confusing ways.
            input(if is_kpl {
                d
            } else {
                d.with_note(format!(
                    "help: `{name}` does not end in .cu, .cuh or .kpl, so it was read as KPL (docs/kpl.md); \
                     if it is CUDA, give it a .cu or .cuh extension"
                ))
            })
        })?]
    };
    if kernels.is_empty() && refused.is_empty() {
        // Located at the file's start for CUDA, as the front end's other errors are.
        let alone = match (&launch.kernel, is_cuda) {
            (Some(k), _) => Failure::Usage(format!("{name}: no __global__ kernel named `{k}`")),
            (None, true) => {
                input(Diagnostic::error("no `__global__` kernel in this file", kpl::Span::new(0, 0)))
            }
            (None, false) => Failure::Usage(format!("{name}: no __global__ kernel found")),
        };
        return Err(Failure::NoKernel(Box::new(alone)));
    }
    // Precedence: command line, then the file's header, then the configuration.
    let from_config = Geometry {
        block_dim: config.launch.block_dim.as_ref().map(|d| dims3(d)),
        grid_dim: config.launch.grid_dim.as_ref().map(|d| dims3(d)),
        warp_sync: config.launch.warp_sync,
    };
    let from_cli = Geometry {
        block_dim: launch.block_dim.as_deref().map(|s| parse_dims_arg(s, "--block-dim")).transpose()?,
        grid_dim: launch.grid_dim.as_deref().map(|s| parse_dims_arg(s, "--grid-dim")).transpose()?,
        warp_sync: launch.warp_sync,
    };
    for k in &mut kernels {
        k.geometry = from_config.overridden_by(&k.geometry).overridden_by(&from_cli);
    }
    Ok(Lowered { kernels, warnings, refused })
}

fn dims3(d: &[u32]) -> [u32; 3] {
    [d.first().copied().unwrap_or(1), d.get(1).copied().unwrap_or(1), d.get(2).copied().unwrap_or(1)]
}

/// A fresh oracle for the kernel's geometry with the configured per-query timeout and the
/// kernel's budget, counted from now.
pub fn oracle_for(k: &Kernel, config: &Config, strict: bool, budget: Budget) -> Z3Oracle {
    Z3Oracle::new(OracleOptions {
        geometry: k.geometry.clone(),
        timeout_ms: config.verifier.smt_timeout_ms,
        strict: strict || config.verifier.strict,
        all_dims: config.verifier.all_dims,
        wrap: config.verifier.wrap,
        budget: (!budget.0.is_zero()).then_some(budget.0),
        work_units: config.verifier.kernel_work,
        query_units: config.verifier.smt_work,
    })
}

/// The launch-shape assumptions the oracle makes for `k` (empty when none), for every report.
pub fn shape_notes(k: &Kernel, config: &Config) -> Vec<String> {
    let opts = OracleOptions {
        geometry: k.geometry.clone(),
        all_dims: config.verifier.all_dims,
        ..Default::default()
    };
    opts.shape_of(k).describe()
}

/// Whether the file is read by the CUDA front end (`.cu`, `.cuh`); everything else is KPL.
pub fn is_cuda_path(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("cu" | "cuh"))
}
