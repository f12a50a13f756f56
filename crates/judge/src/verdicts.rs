//! What a run of many cases adds up: its cases counted by verdict, its
//! programs' peak memory, and the list of its failing cases by kind.

use super::{Failed, Verdict};
use lockstep_search::Address;
use std::collections::BTreeMap;
use std::time::Duration;

/// A run's cases counted by verdict (the `counts` of the stress
/// documents, as they are).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Verdicts {
    pub cases: u64,
    pub ok: u64,
    /// Wrong answers, presentation errors among them.
    pub wrong_answer: u64,
    pub runtime_error: u64,
    pub time_limit: u64,
    /// Over the wall-time limit (ILE).
    pub idle_limit: u64,
    pub memory_limit: u64,
    pub output_limit: u64,
    /// Cases the reference oracle could not answer within its fuel (not run).
    pub skipped: u64,
    /// Of the OK: cases whose first run ended at a time limit and whose
    /// second did not (not failures, unless `--strict-timing`).
    pub flaky: u64,
}

impl lockstep_search::Tally for Verdicts {
    fn add(&mut self, other: Verdicts) {
        self.cases += other.cases;
        self.ok += other.ok;
        self.wrong_answer += other.wrong_answer;
        self.runtime_error += other.runtime_error;
        self.time_limit += other.time_limit;
        self.idle_limit += other.idle_limit;
        self.memory_limit += other.memory_limit;
        self.output_limit += other.output_limit;
        self.skipped += other.skipped;
        self.flaky += other.flaky;
    }
}

impl Verdicts {
    /// `NAME: N cases, R cases/s: a OK, b WA, c RE, d TLE, e ILE, f MLE, g OLE`,
    /// no newline.
    pub fn line(&self, name: &str, elapsed: Duration) -> String {
        format!(
            "{name}: {}, {:.1} cases/s: {}",
            lockstep_text::counted(self.cases, "case"),
            self.cases as f64 / elapsed.as_secs_f64().max(1e-9),
            self.verdicts()
        )
    }

    /// `a OK, b WA, c RE, d TLE, e ILE, f MLE, g OLE`: every verdict, a
    /// count of 0 too (a count shown only when not 0 would read as a
    /// verdict the run cannot give), and `; h flaky` at the end when there
    /// are any (not a verdict: the timing verdicts that passed run again).
    pub fn verdicts(&self) -> String {
        let flaky = match self.flaky {
            0 => String::new(),
            n => format!("; {n} flaky (a time limit once, OK when run again)"),
        };
        format!(
            "{} OK, {} WA, {} RE, {} TLE, {} ILE, {} MLE, {} OLE{flaky}",
            self.ok,
            self.wrong_answer,
            self.runtime_error,
            self.time_limit,
            self.idle_limit,
            self.memory_limit,
            self.output_limit,
        )
    }

    /// Counts one more case judged from `run`: its verdict, and whether it
    /// passed only when run again.
    pub fn add_run(&mut self, verdict: &Verdict, run: &lockstep_process::Execution) {
        self.add_one(verdict);
        if matches!(verdict, Verdict::Ok) && run.flaky.is_some() {
            self.flaky += 1;
        }
    }

    /// Counts one more case with this verdict.
    pub fn add_one(&mut self, verdict: &Verdict) {
        self.cases += 1;
        *match verdict {
            Verdict::Ok => &mut self.ok,
            Verdict::WrongAnswer(_) | Verdict::PresentationError(_) => &mut self.wrong_answer,
            Verdict::RuntimeError { .. } => &mut self.runtime_error,
            Verdict::TimeLimit(_) => &mut self.time_limit,
            Verdict::IdleLimit => &mut self.idle_limit,
            Verdict::MemoryLimit => &mut self.memory_limit,
            Verdict::OutputLimit => &mut self.output_limit,
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

/// In a JSON document: `{"median": bytes, "largest": bytes}`, each null
/// when no peak was measured; the histogram stays inside.
impl serde::Serialize for MemoryFigures {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("MemoryFigures", 2)?;
        out.serialize_field("median", &self.median())?;
        out.serialize_field("largest", &self.largest())?;
        out.end()
    }
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
            lockstep_process::human_bytes(median),
            lockstep_process::human_bytes(largest)
        ))
    }
}

/// A search's failing cases ([`lockstep_search::SearchOutcome::failing`]) in the
/// order [`list_failing`] names them (by kind, each kind in the order of the
/// cases).
pub fn by_kind(mut failing: Vec<(Failed, Address)>) -> Vec<(Failed, Address)> {
    failing.sort_by_key(|&(kind, _)| kind);
    failing
}

/// Writes the cases that passed only when run again, after a time limit
/// (TLE, ILE) at their first run: one line, at most 20 named, apart from the
/// failures, since they are none.
pub fn list_flaky(
    f: &mut std::fmt::Formatter<'_>,
    flaky: &[(&'static str, Address)],
) -> std::fmt::Result {
    const LISTED: usize = 20;
    if flaky.is_empty() {
        return Ok(());
    }
    let cases: Vec<String> = flaky
        .iter()
        .take(LISTED)
        .map(|(code, address)| format!("{address} ({code})"))
        .collect();
    writeln!(
        f,
        "flaky: {} over a time limit once, OK when run again (no failure; --strict-timing makes it one): {}{}",
        lockstep_text::counted(flaky.len() as u64, "case"),
        cases.join(", "),
        if flaky.len() > LISTED { ", ..." } else { "" }
    )
}

/// Writes the failing cases of a run, one line per kind, at most 20 named
/// each, by their addresses (`job 0 case 32`, `seed 5004`), as a replay
/// reads them back (`--case`).
pub fn list_failing(
    f: &mut std::fmt::Formatter<'_>,
    failing: &[(Failed, Address)],
) -> std::fmt::Result {
    const LISTED: usize = 20;
    for kind in Failed::ALL {
        let cases: Vec<String> = failing
            .iter()
            .filter(|failing| failing.0 == kind)
            .map(|(_, address)| address.to_string())
            .collect();
        if !cases.is_empty() {
            writeln!(
                f,
                "{kind}: {}: {}{}",
                lockstep_text::counted(cases.len() as u64, "case"),
                cases[..cases.len().min(LISTED)].join(", "),
                if cases.len() > LISTED { ", ..." } else { "" }
            )?;
        }
    }
    Ok(())
}
