//! Configuration: the cost model, solver and mode choices, verifier limits and default launch
//! geometry. `config/default.yaml` documents every key; `--config FILE` overrides the keys it
//! gives (every key is optional and defaults to the built-in value); `autosync config` prints the
//! effective configuration. Unknown keys and ill-typed values are errors that name the key and
//! the file.

use crate::maxsat::Engine;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The built-in defaults, identical to `config/default.yaml`.
pub const DEFAULT_YAML: &str = include_str!("../config/default.yaml");

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub cost: CostConfig,
    pub synthesis: SynthesisConfig,
    pub verifier: VerifierConfig,
    pub launch: LaunchConfig,
}

/// `C(ℓ) = loop_factor^|loops(ℓ)| × cond_factor^|conds(ℓ)|` (AutoSync Sec. III-C).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct CostConfig {
    pub loop_factor: f64,
    pub cond_factor: f64,
}

impl Default for CostConfig {
    fn default() -> CostConfig {
        CostConfig { loop_factor: 100.0, cond_factor: 0.5 }
    }
}

/// How synthesis uses the oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The oracle's witnesses and the up-front uniformity analysis become exact constraints.
    #[default]
    Informed,
    /// The oracle as a black box returning race locations only, as in the AutoSync paper.
    Paper,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct SynthesisConfig {
    pub mode: Mode,
    /// The MaxSAT engine (`minisat` or `z3`).
    pub solver: Engine,
    pub reoptimize: bool,
    pub max_iterations: u32,
    /// Place `__syncwarp()` where it suffices and is legal (`--no-warp` turns it off).
    pub warp: bool,
    /// Leave divergent barriers of the input where they are (`--keep-barriers`).
    pub keep_barriers: bool,
    /// Split statements that race inside themselves (`--no-split` turns it off).
    pub split: bool,
}

impl Default for SynthesisConfig {
    fn default() -> SynthesisConfig {
        SynthesisConfig {
            mode: Mode::Informed,
            solver: Engine::Minisat,
            reoptimize: false,
            max_iterations: 1000,
            warp: true,
            keep_barriers: false,
            split: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct VerifierConfig {
    /// Per-query SMT timeout; a query that times out is reported as a possible race.
    pub smt_timeout_ms: u32,
    /// Report write-write races of equal values as errors rather than benign warnings.
    pub strict: bool,
    /// Leave every dimension of a symbolic launch free (no launch-shape inference).
    pub all_dims: bool,
    /// Check executions whose index arithmetic wraps around 2^32 (`--wrap`); by default they
    /// are assumed away (docs/semantics.md).
    pub wrap: bool,
    /// The old key of the default (bounded index arithmetic): `true` is accepted and changes
    /// nothing, `false` is refused with a pointer to `wrap: true`. Not printed when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_wrap: Option<bool>,
    /// Wall time per kernel in seconds (`--timeout`; 0: no limit): the safety net above
    /// `kernel_work`.
    pub kernel_timeout_s: f64,
    /// Solver work per kernel in z3's resource units (0: no limit): the budget that decides
    /// what is undecided, the same alone, in parallel and under load.
    pub kernel_work: u64,
    /// Solver work per query in z3's resource units (0: no limit; `smt_timeout_ms` is the net
    /// above it).
    pub smt_work: u64,
}

/// The default `verifier.kernel_work`: about 8 s of z3's work on the 2-core reference machine.
pub const KERNEL_WORK: u64 = 8 * WORK_PER_SECOND;

/// The default `verifier.smt_work`: about 3 s of work for one query.
pub const SMT_WORK: u64 = 3 * WORK_PER_SECOND;

/// z3's resource units per second of solving on the 2-core reference machine: 5.7 million on
/// the corpus's hardest kernel (`tests/driver/z_tensor_gather.cu`, 115 million in 20 s), 2 to 5
/// million over whole `check` runs of the applications corpus (`autosync check --stats` prints
/// each kernel's units beside its time).
const WORK_PER_SECOND: u64 = 5_000_000;

impl Default for VerifierConfig {
    fn default() -> VerifierConfig {
        VerifierConfig {
            smt_timeout_ms: 10_000,
            strict: false,
            all_dims: false,
            wrap: false,
            no_wrap: None,
            kernel_timeout_s: 60.0,
            kernel_work: KERNEL_WORK,
            smt_work: SMT_WORK,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct LaunchConfig {
    pub block_dim: Option<Vec<u32>>,
    pub grid_dim: Option<Vec<u32>>,
    pub warp_sync: Option<u32>,
}

/// A configuration file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}: {message}")]
    Invalid { file: String, message: String },
    #[error("{file}: cannot read: {source}")]
    Io { file: String, source: std::io::Error },
}

impl Config {
    /// The built-in defaults (`config/default.yaml` says the same, checked by a unit test).
    pub fn default_config() -> Config {
        Config::default()
    }

    /// The configuration as YAML, every key with its value (what `autosync config` prints).
    pub fn to_yaml(&self) -> String {
        serde_yaml::to_string(self).unwrap_or_else(|e| format!("# cannot print the configuration: {e}\n"))
    }

    /// Parses and validates YAML; `file` names the source in messages.
    pub fn from_yaml(text: &str, file: &str) -> Result<Config, ConfigError> {
        let invalid = |message: String| ConfigError::Invalid { file: file.to_string(), message };
        // An empty file (or one of comments only) is the defaults.
        let empty = matches!(serde_yaml::from_str::<serde_yaml::Value>(text), Ok(serde_yaml::Value::Null));
        let c: Config = if empty {
            Config::default()
        } else {
            serde_yaml::from_str(text).map_err(|e| invalid(e.to_string()))?
        };
        if !(c.cost.loop_factor >= 1.0 && c.cost.loop_factor <= 1e6) {
            return Err(invalid(format!(
                "cost.loop_factor: must be between 1 and 1e6, got {}",
                c.cost.loop_factor
            )));
        }
        if !(c.cost.cond_factor > 0.0 && c.cost.cond_factor <= 1.0) {
            return Err(invalid(format!("cost.cond_factor: must be in (0, 1], got {}", c.cost.cond_factor)));
        }
        if c.verifier.no_wrap == Some(false) {
            return Err(invalid(
                "verifier.no_wrap: false is no longer a setting: index arithmetic is assumed not to wrap \
                 by default; write `wrap: true` to check executions where it wraps (docs/semantics.md)"
                    .to_string(),
            ));
        }
        if !(c.verifier.kernel_timeout_s.is_finite() && (0.0..=1e7).contains(&c.verifier.kernel_timeout_s)) {
            return Err(invalid(format!(
                "verifier.kernel_timeout_s: must be a number of seconds from 0 to 1e7, got {}",
                c.verifier.kernel_timeout_s
            )));
        }
        for (key, v) in [("launch.block_dim", &c.launch.block_dim), ("launch.grid_dim", &c.launch.grid_dim)] {
            if let Some(d) = v {
                if d.is_empty() || d.len() > 3 || d.contains(&0) {
                    return Err(invalid(format!("{key}: expected 1 to 3 positive numbers, got {d:?}")));
                }
            }
        }
        Ok(c)
    }

    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigError::Io { file: file.clone(), source })?;
        Config::from_yaml(&text, &file)
    }

    /// The cost model as exact rationals.
    pub fn cost_model(&self) -> CostModel {
        CostModel {
            loop_factor: Ratio::from_f64(self.cost.loop_factor),
            cond_factor: Ratio::from_f64(self.cost.cond_factor),
        }
    }
}

/// A non-negative rational `num / den`, reduced, with arbitrary-precision integers: the cost of a
/// barrier under 300 nested loops (`100^300`) is exact, sums never overflow. Ordered by value
/// (`401/2 < 201/1`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    pub num: BigUint,
    pub den: BigUint,
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> std::cmp::Ordering {
        (&self.num * &other.den).cmp(&(&other.num * &self.den))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ratio {
    /// `num / den` reduced (a zero denominator counts as 1).
    pub fn new(num: u128, den: u128) -> Ratio {
        Ratio::reduced(BigUint::from(num), BigUint::from(den.max(1)))
    }
    fn reduced(num: BigUint, den: BigUint) -> Ratio {
        let den = if den.is_zero() { BigUint::one() } else { den };
        let g = num.gcd(&den);
        if g.is_one() || g.is_zero() {
            Ratio { num, den }
        } else {
            Ratio { num: num / &g, den: den / &g }
        }
    }
    /// The exact value of a decimal number as written (0.5 → 1/2, 100 → 100/1), to 6 decimals.
    pub fn from_f64(v: f64) -> Ratio {
        let scaled = (v * 1e6).round().max(0.0) as u128;
        Ratio::new(scaled, 1_000_000)
    }
    pub fn times(&self, o: &Ratio) -> Ratio {
        Ratio::reduced(&self.num * &o.num, &self.den * &o.den)
    }
    pub fn plus(&self, o: &Ratio) -> Ratio {
        Ratio::reduced(&self.num * &o.den + &o.num * &self.den, &self.den * &o.den)
    }
    pub fn pow(&self, n: usize) -> Ratio {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        Ratio { num: self.num.pow(n), den: self.den.pow(n) }
    }
    /// The value as a float (infinite when it exceeds `f64`).
    pub fn as_f64(&self) -> f64 {
        let (n, d) = (self.num.to_f64().unwrap_or(f64::INFINITY), self.den.to_f64().unwrap_or(f64::INFINITY));
        if n.is_finite() && d.is_finite() {
            n / d
        } else {
            // Both huge: divide exactly first, then the remainder's share.
            (&self.num / &self.den).to_f64().unwrap_or(f64::INFINITY)
        }
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.den.is_one() {
            write!(f, "{}", self.num)
        } else {
            let v = self.as_f64();
            if v.is_finite() {
                write!(f, "{v}")
            } else {
                // Beyond f64: the exact decimal expansion (finite: the cost factors are decimals,
                // so the denominator divides a power of ten), at most 40 places.
                let (int, mut rem) = self.num.div_rem(&self.den);
                let mut digits = String::new();
                while !rem.is_zero() && digits.len() < 40 {
                    let (d, r) = (rem * 10u32).div_rem(&self.den);
                    digits.push_str(&d.to_string());
                    rem = r;
                }
                write!(f, "{int}.{digits}")
            }
        }
    }
}

/// The barrier cost model of AutoSync Sec. III-C with exact arithmetic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostModel {
    pub loop_factor: Ratio,
    pub cond_factor: Ratio,
}

impl Default for CostModel {
    fn default() -> CostModel {
        CostModel { loop_factor: Ratio::new(100, 1), cond_factor: Ratio::new(1, 2) }
    }
}

impl CostModel {
    /// `LC^loops × IC^conds`.
    pub fn cost(&self, loops: usize, conds: usize) -> Ratio {
        self.loop_factor.pow(loops).times(&self.cond_factor.pow(conds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_default_parses() {
        let c = Config::from_yaml(DEFAULT_YAML, "default.yaml").map_err(|e| e.to_string());
        assert_eq!(c.map(|c| c.cost.loop_factor), Ok(100.0));
    }

    #[test]
    fn embedded_default_is_the_built_in_default() {
        let c = Config::from_yaml(DEFAULT_YAML, "default.yaml").map_err(|e| e.to_string());
        assert_eq!(c, Ok(Config::default()));
    }

    #[test]
    fn every_key_is_optional() {
        let c =
            Config::from_yaml("verifier:\n  smt_timeout_ms: 500\n", "one.yaml").map_err(|e| e.to_string());
        let mut want = Config::default();
        want.verifier.smt_timeout_ms = 500;
        assert_eq!(c, Ok(want));
        assert_eq!(Config::from_yaml("{}", "empty.yaml").map_err(|e| e.to_string()), Ok(Config::default()));
        // Unknown keys stay errors.
        assert!(Config::from_yaml("verifier:\n  stric: true\n", "typo.yaml").is_err());
    }

    #[test]
    fn printed_configuration_reads_back() {
        let mut c = Config::default();
        c.cost.cond_factor = 0.25;
        c.launch.block_dim = Some(vec![16, 16]);
        let back = Config::from_yaml(&c.to_yaml(), "printed.yaml").map_err(|e| e.to_string());
        assert_eq!(back, Ok(c));
    }

    #[test]
    fn costs_are_exact() {
        let m = CostModel::default();
        assert_eq!(m.cost(0, 0), Ratio::new(1, 1));
        assert_eq!(m.cost(1, 0), Ratio::new(100, 1));
        assert_eq!(m.cost(2, 1), Ratio::new(5000, 1));
        assert_eq!(m.cost(0, 3), Ratio::new(1, 8));
    }
}
