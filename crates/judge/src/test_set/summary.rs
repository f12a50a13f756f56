//! What `lockstep test` prints: a line per test (verdict, time, memory,
//! what went wrong), the counts with the median and largest time and
//! memory. The same outcome, serialized, is its JSON document (the schema is
//! in docs/guide/src/reference/json.md).

use super::{JudgedTest, TestSetOptions, TestSetOutcome};
use crate::{Verdict, Verdicts};
use lockstep_process::human_bytes;
use serde::ser::SerializeStruct;
use std::time::Duration;

/// What a test's line says after its figures: what went wrong, why it was
/// not judged, or that it passed only when run again; `said` is the last
/// line of the program's stderr.
pub(super) fn detail(
    verdict: Option<&Verdict>,
    flaky: Option<&'static str>,
    memory: Option<u64>,
    said: &str,
    options: &TestSetOptions,
) -> Option<String> {
    let clipped = |text: &str| lockstep_text::clip(text.lines().last().unwrap_or(""), 120);
    Some(match verdict {
        None => "no answer (NAME.ans or NAME.out): exited cleanly, output not judged".to_string(),
        Some(Verdict::Ok) => {
            return flaky.map(|code| {
                format!("flaky: {code} at its first run, OK when run again (--strict-timing makes it a failure)")
            })
        }
        Some(Verdict::WrongAnswer(diff) | Verdict::PresentationError(diff)) => diff.clone(),
        Some(Verdict::RuntimeError { status, stderr }) if stderr.trim().is_empty() => {
            status.clone()
        }
        Some(Verdict::RuntimeError { status, stderr }) => format!("{status}: {}", clipped(stderr)),
        Some(Verdict::TimeLimit(_)) => {
            format!(
                "spent more than {} ms of CPU time: killed",
                options.resources.time.as_millis()
            )
        }
        Some(Verdict::IdleLimit) => {
            format!(
                "still running after {} ms of wall time without spending its CPU time: killed",
                options.resources.wall.as_millis()
            )
        }
        Some(Verdict::MemoryLimit) => {
            let limit = options.resources.memory.unwrap_or_default();
            match memory {
                Some(peak) if peak > limit => {
                    format!(
                        "used {}, over the limit of {}",
                        human_bytes(peak),
                        human_bytes(limit)
                    )
                }
                peak => {
                    let peak =
                        peak.map_or(String::new(), |p| format!(" (peak {})", human_bytes(p)));
                    let said = match clipped(said) {
                        said if said.is_empty() => String::new(),
                        said => format!(": {said}"),
                    };
                    format!(
                        "ran out of memory under the limit of {}{peak}{said}",
                        human_bytes(limit)
                    )
                }
            }
        }
        Some(Verdict::OutputLimit) => {
            format!("wrote more than {} bytes: killed", options.resources.output)
        }
    })
}

fn verdict_code(outcome: &JudgedTest) -> &'static str {
    outcome.verdict.as_ref().map_or("--", Verdict::code)
}

/// One test's line: `NAME  VERDICT  TIME  MEMORY  detail`, the name padded
/// to `width`.
pub struct TestLine<'a> {
    pub outcome: &'a JudgedTest,
    pub width: usize,
}

impl std::fmt::Display for TestLine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = self.outcome;
        let memory = o.memory.map_or("-".to_string(), human_bytes);
        write!(
            f,
            "{:width$}  {:<3}  {:>6} ms  {:>9}",
            o.name,
            verdict_code(o),
            o.elapsed.as_millis(),
            memory,
            width = self.width
        )?;
        match &o.detail {
            Some(detail) => writeln!(f, "  {detail}"),
            None => writeln!(f),
        }
    }
}

/// The summary after the lines: the counts, then time and memory.
impl std::fmt::Display for TestSetOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.counts;
        write!(
            f,
            "test: {}: {}",
            lockstep_text::counted(self.outcomes.len() as u64, "test"),
            c.verdicts()
        )?;
        if self.unjudged() > 0 {
            write!(f, ", {} not judged (no answer)", self.unjudged())?;
        }
        writeln!(f, "; {:.2} s", self.elapsed.as_secs_f64())?;
        if let Some((median, largest)) = self.times {
            write!(
                f,
                "time: median {} ms, largest {} ms",
                median.as_millis(),
                largest.as_millis()
            )?;
            match self.memory.line() {
                Some(line) => writeln!(f, "; {line}")?,
                None => writeln!(f)?,
            }
        }
        Ok(())
    }
}

/// A verdict as its code (`WA`), null when the test was not judged.
pub(super) fn verdict_code_or_null<S: serde::Serializer>(
    verdict: &Option<Verdict>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_some(&verdict.as_ref().map(Verdict::code))
}

/// A duration in milliseconds, as a fraction.
pub(crate) fn millis<S: serde::Serializer>(d: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(d.as_secs_f64() * 1e3)
}

/// A duration in seconds, as a fraction.
pub(crate) fn seconds<S: serde::Serializer>(
    d: &Duration,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(d.as_secs_f64())
}

/// The counts as `test`'s document has always named them (the stress
/// documents' `Verdicts` came later, with other names): the tests, each
/// verdict, the flaky among the OK, and those not judged.
pub(super) fn test_counts<S: serde::Serializer>(
    c: &Verdicts,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut out = serializer.serialize_struct("Counts", 10)?;
    out.serialize_field("tests", &(c.cases + c.skipped))?;
    for (key, count) in [
        ("ok", c.ok),
        ("wa", c.wrong_answer),
        ("re", c.runtime_error),
        ("tle", c.time_limit),
        ("ile", c.idle_limit),
        ("flaky", c.flaky),
        ("mle", c.memory_limit),
        ("ole", c.output_limit),
        ("not_judged", c.skipped),
    ] {
        out.serialize_field(key, &count)?;
    }
    out.end()
}

/// The median and the largest time of the tests, in milliseconds (each
/// null when no test ran).
pub(super) fn time_figures<S: serde::Serializer>(
    times: &Option<(Duration, Duration)>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut out = serializer.serialize_struct("Figures", 2)?;
    out.serialize_field("median", &times.map(|t| ms(t.0)))?;
    out.serialize_field("largest", &times.map(|t| ms(t.1)))?;
    out.end()
}

/// The solution's limits: `time_ms` (after the language's multiplier),
/// `memory_bytes` and `memory_guard` (how a memory limit is enforced), null
/// without a memory limit, and `output_bytes`.
pub(super) fn limits<S: serde::Serializer>(
    r: &lockstep_process::Resources,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut out = serializer.serialize_struct("Resources", 4)?;
    out.serialize_field("time_ms", &r.time.as_millis())?;
    out.serialize_field("memory_bytes", &r.memory)?;
    out.serialize_field(
        "memory_guard",
        &r.memory
            .map(|_| lockstep_process::memory_guard().to_string()),
    )?;
    out.serialize_field("output_bytes", &r.output)?;
    out.end()
}
