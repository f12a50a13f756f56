//! A night's run over time, read back from libFuzzer's own log: the status
//! lines it prints as it goes, as samples a report can plot.
//!
//! libFuzzer has no machine-readable output; its status lines are the record.
//! Two shapes are read. Fork mode (what the overnight script runs):
//!
//! ```text
//! #1048576: cov: 1133 ft: 3810 corp: 321 exec/s: 52428 oom/timeout/crash: 0/0/3 time: 20s job: 12 dft_time: 0
//! ```
//!
//! and the single-process mode's `#65536 pulse  cov: 1133 ft: 3810 corp: 321/12Kb
//! lim: 100 exec/s: 21845 rss: 60Mb`, which carries no time: there the time is
//! the executions over the rate. Any other line is skipped.

use serde::Serialize;

/// libFuzzer at one moment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FuzzerSample {
    pub seconds: f64,
    pub execs: u64,
    pub cov: u64,
    pub ft: u64,
    pub crashes: u64,
}

/// The samples of a libFuzzer log, in order.
pub fn libfuzzer_series(log: &str) -> Vec<FuzzerSample> {
    log.lines().filter_map(libfuzzer_sample).collect()
}

fn libfuzzer_sample(line: &str) -> Option<FuzzerSample> {
    let rest = line.strip_prefix('#')?;
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let execs: u64 = rest[..digits].parse().ok()?;
    let words: Vec<&str> = rest[digits..].split_whitespace().collect();
    let after = |key: &str| -> Option<&str> {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1).copied()
    };
    let count = |key: &str| -> Option<u64> {
        after(key).and_then(|v| {
            v.split('/').next().and_then(|n| {
                n.trim_end_matches(|c: char| !c.is_ascii_digit())
                    .parse()
                    .ok()
            })
        })
    };
    let cov = count("cov:")?;
    let ft = count("ft:").unwrap_or(0);
    let rate = count("exec/s:").unwrap_or(0);
    let crashes = after("oom/timeout/crash:")
        .and_then(|v| v.rsplit('/').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let seconds = match after("time:") {
        Some(t) => t.trim_end_matches('s').parse().ok()?,
        None if rate > 0 => execs as f64 / rate as f64,
        None => 0.0,
    };
    Some(FuzzerSample {
        seconds,
        execs,
        cov,
        ft,
        crashes,
    })
}

#[cfg(test)]
mod tests;
