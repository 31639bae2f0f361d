//! A description of the host the benchmarks ran on (CPU model, cores, date), for the report.

use std::time::{SystemTime, UNIX_EPOCH};

/// Where and when a benchmark ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The `model name` of /proc/cpuinfo, or `unknown CPU` where there is none.
    pub cpu: String,
    /// Cores available to this process (`std::thread::available_parallelism`).
    pub cores: usize,
    /// Worker threads used.
    pub threads: usize,
    /// UTC date and time, `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
    /// The 1-minute load average of /proc/loadavg when the description was taken (other work on
    /// the machine inflates the times), if known.
    pub load: Option<String>,
}

impl Machine {
    /// The current host; `threads` is what the run used.
    pub fn current(threads: usize) -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| cpu_model(&s))
            .unwrap_or_else(|| "unknown CPU".to_string());
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        let load = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|s| s.split_whitespace().next().map(str::to_string));
        Machine { cpu, cores, threads, date: utc_date(secs), load }
    }
}

/// The first `model name` line of a /proc/cpuinfo text.
pub fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim() == "model name")
        .map(|(_, v)| v.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// `YYYY-MM-DD HH:MM UTC` for seconds since the Unix epoch (proleptic Gregorian calendar).
pub fn utc_date(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let (h, m) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    // Civil date from a day count (days since 1970-01-01), by 400-year eras of 146097 days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mo <= 2);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{m:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(utc_date(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_date(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_date(1_700_000_000), "2023-11-14 22:13 UTC");
    }

    #[test]
    fn cpu_model_line() {
        let s = "processor\t: 0\nmodel name\t: AMD   EPYC 7B13\nflags: x\n";
        assert_eq!(cpu_model(s).as_deref(), Some("AMD EPYC 7B13"));
        assert_eq!(cpu_model("processor: 0\n"), None);
    }
}
