//! What `lockstep test` prints: a line per test (verdict, time, memory,
//! what went wrong), the counts with the median and largest time and
//! memory, or all of it as one JSON document (the schema is in
//! docs/guide/src/reference/json.md).

use super::{JudgedTest, TestSetOptions, TestSetOutcome};
use crate::Verdict;
use lockstep_process::human_bytes;
use serde::Serialize;

/// What a failed test's line says after its figures.
fn detail(outcome: &JudgedTest, options: &TestSetOptions) -> Option<String> {
    let said = |text: &str| lockstep_text::clip(text.lines().last().unwrap_or(""), 120);
    Some(match outcome.verdict.as_ref() {
        None => "no answer (NAME.ans or NAME.out): exited cleanly, output not judged".to_string(),
        Some(Verdict::Ok) => {
            return outcome.flaky.map(|code| {
                format!("flaky: {code} at its first run, OK when run again (--strict-timing makes it a failure)")
            })
        }
        Some(Verdict::WrongAnswer(diff) | Verdict::PresentationError(diff)) => diff.clone(),
        Some(Verdict::RuntimeError { status, stderr }) if stderr.trim().is_empty() => {
            status.clone()
        }
        Some(Verdict::RuntimeError { status, stderr }) => format!("{status}: {}", said(stderr)),
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
            match outcome.memory {
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
                    let said = match said(&outcome.said) {
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
    pub options: &'a TestSetOptions,
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
        match detail(o, self.options) {
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
        if let Some((median, largest)) = self.times() {
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

#[derive(Serialize)]
struct JsonResources {
    time_ms: u128,
    memory_bytes: Option<u64>,
    /// How a memory limit is enforced (absent without one).
    memory_guard: Option<String>,
    output_bytes: usize,
}

#[derive(Serialize)]
struct JsonTest {
    name: String,
    /// OK, WA, RE, TLE, MLE, OLE, or null for a test without an answer
    /// whose run exited cleanly (a crash or a limit has its verdict).
    verdict: Option<&'static str>,
    time_ms: f64,
    memory_bytes: Option<u64>,
    detail: Option<String>,
}

#[derive(Serialize)]
struct JsonCounts {
    tests: usize,
    ok: u64,
    wa: u64,
    re: u64,
    tle: u64,
    ile: u64,
    /// Of the OK: over a time limit at the first run, OK at the second.
    flaky: u64,
    mle: u64,
    ole: u64,
    not_judged: usize,
}

#[derive(Serialize)]
struct JsonFigures<T> {
    median: Option<T>,
    largest: Option<T>,
}

/// `lockstep test --format json`: the whole report as one document (the
/// command line adds the `lockstep` and `schema` fields every document of
/// lockstep's opens with).
#[derive(Serialize)]
pub struct TestSetJson {
    program: String,
    /// The comparison, or `checker`.
    judged_by: String,
    resources: JsonResources,
    tests: Vec<JsonTest>,
    counts: JsonCounts,
    time_ms: JsonFigures<f64>,
    memory_bytes: JsonFigures<u64>,
    elapsed_s: f64,
}

impl TestSetJson {
    pub fn of(report: &TestSetOutcome, options: &TestSetOptions) -> TestSetJson {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        let c = &report.counts;
        let times = report.times();
        TestSetJson {
            program: options.cmd.clone(),
            judged_by: match &options.checker {
                Some(checker) => format!("checker {checker}"),
                None => options.comparison.to_string(),
            },
            resources: JsonResources {
                time_ms: options.resources.time.as_millis(),
                memory_bytes: options.resources.memory,
                memory_guard: options
                    .resources
                    .memory
                    .map(|_| lockstep_process::memory_guard().to_string()),
                output_bytes: options.resources.output,
            },
            tests: report
                .outcomes
                .iter()
                .map(|o| JsonTest {
                    name: o.name.clone(),
                    verdict: o.verdict.as_ref().map(Verdict::code),
                    time_ms: ms(o.elapsed),
                    memory_bytes: o.memory,
                    detail: detail(o, options),
                })
                .collect(),
            counts: JsonCounts {
                tests: report.outcomes.len(),
                ok: c.ok,
                wa: c.wrong_answer,
                re: c.runtime_error,
                tle: c.time_limit,
                ile: c.idle_limit,
                flaky: c.flaky,
                mle: c.memory_limit,
                ole: c.output_limit,
                not_judged: report.unjudged(),
            },
            time_ms: JsonFigures {
                median: times.map(|t| ms(t.0)),
                largest: times.map(|t| ms(t.1)),
            },
            memory_bytes: JsonFigures {
                median: report.memory.median(),
                largest: report.memory.largest(),
            },
            elapsed_s: report.elapsed.as_secs_f64(),
        }
    }
}
