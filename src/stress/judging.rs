//! Judging one run of a program under test, for every kind of stress (a
//! puzzle's, any problem's) and for a fixed test set: the verdict (OK, WA,
//! RE, TLE, MLE, OLE) from its ending and output, the counts of a run's
//! verdicts and its peak memory figures, the list of failing cases, and the
//! start-up check that a command can be run at all.

use crate::compare::Comparison;
use crate::process::{Ending, Execution, Limits};
use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

/// How the program did on one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    Ok,
    /// Wrong answer: the first differing line.
    WrongAnswer {
        diff: String,
    },
    /// Non-zero exit or a signal, with the end of stderr.
    RuntimeError {
        status: String,
        stderr: String,
    },
    TimeLimit,
    /// Used more memory than the limit.
    MemoryLimit,
    /// Wrote more than the output limit (killed at once).
    OutputLimit,
}

impl Judgement {
    pub fn code(&self) -> &'static str {
        match self {
            Judgement::Ok => "OK",
            Judgement::WrongAnswer { .. } => "WA",
            Judgement::RuntimeError { .. } => "RE",
            Judgement::TimeLimit => "TLE",
            Judgement::MemoryLimit => "MLE",
            Judgement::OutputLimit => "OLE",
        }
    }

    pub(crate) fn slug(&self) -> &'static str {
        match self {
            Judgement::Ok => "ok",
            Judgement::WrongAnswer { .. } => "wrong-answer",
            Judgement::RuntimeError { .. } => "runtime-error",
            Judgement::TimeLimit => "time-limit",
            Judgement::MemoryLimit => "memory-limit",
            Judgement::OutputLimit => "output-limit",
        }
    }
}

pub(crate) fn describe_status(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => "unknown exit".to_string(),
    }
}

/// The last lines of a program's stderr, for a report.
pub(crate) fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// The program under test run on `input`; one that cannot start is a
/// runtime error (exit code 127, as a shell would give), not an error of
/// lockstep's.
pub fn run_program(cmd: &str, input: &str, limits: Limits) -> Execution {
    crate::process::execute(cmd, input, limits).unwrap_or_else(|e| Execution {
        ending: Ending::Exited(ExitStatus::from_raw(127 << 8)),
        stdout: String::new(),
        stderr: format!("could not start: {e}"),
        elapsed: Duration::ZERO,
        memory: None,
    })
}

/// What a report says of an MLE run: the limit, the peak seen, and the end
/// of stderr when the program said why it stopped.
pub fn memory_limit_detail(run: &Execution, limit: Option<u64>) -> String {
    let limit = limit.map_or("the limit".to_string(), crate::process::human_bytes);
    let peak = run.memory.map_or(String::new(), |p| {
        format!(" (peak {})", crate::process::human_bytes(p))
    });
    match tail(&run.stderr, 5) {
        said if said.trim().is_empty() => format!("used more than {limit} of memory{peak}\n"),
        said => format!(
            "ran out of memory under {limit}{peak}; stderr ends with:\n{}",
            crate::text::indent(&said)
        ),
    }
}

/// Judges one program run against the oracle's output, compared as
/// `comparison` says.
pub fn judge(expected: &str, run: &Execution, comparison: Comparison) -> Judgement {
    match run.ending {
        Ending::TimeLimit => Judgement::TimeLimit,
        Ending::MemoryLimit => Judgement::MemoryLimit,
        Ending::OutputLimit => Judgement::OutputLimit,
        Ending::Exited(status) if !status.success() => Judgement::RuntimeError {
            status: describe_status(status),
            stderr: tail(&run.stderr, 10),
        },
        Ending::Exited(_) => match comparison.difference(expected, &run.stdout) {
            None => Judgement::Ok,
            Some(diff) => Judgement::WrongAnswer { diff },
        },
    }
}

crate::jobs::counters! {
    /// Counts of a stress run.
    pub struct Counts / SharedCounts {
        pub cases,
        pub ok,
        pub wrong_answer,
        pub runtime_error,
        pub time_limit,
        pub memory_limit,
        pub output_limit,
        /// Cases the reference oracle could not answer within its fuel (not run).
        pub skipped,
    }
}

impl Counts {
    /// `NAME: N cases, R cases/s: a OK, b WA, c RE, d TLE, e MLE, f OLE`,
    /// no newline.
    pub fn line(&self, name: &str, elapsed: Duration) -> String {
        format!(
            "{name}: {} cases, {:.1} cases/s: {}",
            self.cases,
            self.cases as f64 / elapsed.as_secs_f64().max(1e-9),
            self.verdicts()
        )
    }

    /// `a OK, b WA, c RE, d TLE, e MLE, f OLE`.
    pub fn verdicts(&self) -> String {
        format!(
            "{} OK, {} WA, {} RE, {} TLE, {} MLE, {} OLE",
            self.ok,
            self.wrong_answer,
            self.runtime_error,
            self.time_limit,
            self.memory_limit,
            self.output_limit,
        )
    }

    /// The live progress line: `NAME: N cases, R cases/s, K not OK, S s`.
    pub fn progress(&self, name: &str, secs: f64) -> String {
        format!(
            "{name}: {} cases, {:.1} cases/s, {} not OK, {secs:.0} s",
            self.cases,
            self.cases as f64 / secs.max(1e-9),
            // Two relaxed counters read apart: `ok` may run ahead.
            self.cases.saturating_sub(self.ok),
        )
    }

    /// One case with this verdict.
    pub fn one(verdict: &Judgement) -> Counts {
        let mut counts = Counts::default();
        counts.add_one(verdict);
        counts
    }

    /// Counts one more case with this verdict.
    pub fn add_one(&mut self, verdict: &Judgement) {
        self.cases += 1;
        *match verdict {
            Judgement::Ok => &mut self.ok,
            Judgement::WrongAnswer { .. } => &mut self.wrong_answer,
            Judgement::RuntimeError { .. } => &mut self.runtime_error,
            Judgement::TimeLimit => &mut self.time_limit,
            Judgement::MemoryLimit => &mut self.memory_limit,
            Judgement::OutputLimit => &mut self.output_limit,
        } += 1;
    }
}

/// The peak memory of a run's programs, each run's peak kept by its KiB
/// (peaks of one program cluster, so the map stays small): the median and
/// the largest, exactly.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryFigures {
    kib: BTreeMap<u64, u64>,
    runs: u64,
}

impl MemoryFigures {
    /// One run's peak, if it was measured.
    pub fn add(&mut self, peak: Option<u64>) {
        if let Some(bytes) = peak {
            *self.kib.entry(bytes.div_ceil(1024)).or_default() += 1;
            self.runs += 1;
        }
    }

    /// The median peak, in bytes (the lower middle of an even count).
    pub fn median(&self) -> Option<u64> {
        let middle = self.runs.checked_sub(1)? / 2;
        let mut seen = 0;
        self.kib.iter().find_map(|(&kib, &n)| {
            seen += n;
            (seen > middle).then_some(kib * 1024)
        })
    }

    /// The largest peak, in bytes.
    pub fn largest(&self) -> Option<u64> {
        self.kib.keys().next_back().map(|kib| kib * 1024)
    }

    /// `peak memory: median 3.4 MiB, largest 3.6 MiB`, when any was measured.
    pub fn line(&self) -> Option<String> {
        let (median, largest) = (self.median()?, self.largest()?);
        Some(format!(
            "peak memory: median {}, largest {}",
            crate::process::human_bytes(median),
            crate::process::human_bytes(largest)
        ))
    }
}

/// Writes the failing cases of a run, one line per kind, at most 20 named
/// each: `failing` holds each case's kind and name, `named` says what the
/// names are (`job.index`, `seed`).
pub fn list_failing(
    f: &mut std::fmt::Formatter<'_>,
    failing: &[(&'static str, String)],
    named: &str,
) -> std::fmt::Result {
    const LISTED: usize = 20;
    for kind in KINDS {
        let cases: Vec<&str> = failing
            .iter()
            .filter(|failing| failing.0 == kind)
            .map(|(_, name)| name.as_str())
            .collect();
        if !cases.is_empty() {
            writeln!(
                f,
                "{kind}: {} case{} ({named}): {}{}",
                cases.len(),
                if cases.len() == 1 { "" } else { "s" },
                cases[..cases.len().min(LISTED)].join(" "),
                if cases.len() > LISTED { " ..." } else { "" }
            )?;
        }
    }
    Ok(())
}

/// Checks that the command can be started at all, so that a typo is one clear
/// error rather than a runtime error on every case. The program gets an empty
/// input and `limits`; running out of time there is fine (it started).
pub fn check_command(cmd: &str, limits: Limits) -> Result<(), String> {
    match crate::process::execute(cmd, "", limits) {
        Err(e) => Err(format!("cannot start {cmd:?}: {e}")),
        Ok(run) => match run.ending {
            // The shell's "not found" and "not executable".
            Ending::Exited(status) if matches!(status.code(), Some(126 | 127)) => Err(format!(
                "cannot start {cmd:?}: the shell says (exit code {}): {}",
                status.code().unwrap_or_default(),
                tail(&run.stderr, 1)
            )),
            // In a pipeline the shell's exit code is the last command's; its
            // complaint about a missing or unrunnable command is still on stderr.
            _ => match run.stderr.lines().find(|l| {
                l.starts_with("sh: ")
                    && (l.ends_with("not found") || l.ends_with("Permission denied"))
            }) {
                Some(line) => Err(format!("cannot start {cmd:?}: the shell says: {line}")),
                None => Ok(()),
            },
        },
    }
}

/// The order failure kinds are reported and shrunk in.
pub(crate) const KINDS: [&str; 5] = ["WA", "RE", "TLE", "MLE", "OLE"];
