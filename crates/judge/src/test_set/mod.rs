//! A solution over a fixed set of tests, as `oj test` and `rbx run` run one:
//! every `NAME.in` of a directory with its answer `NAME.ans` (or
//! `NAME.out`), or every row of a corpus file, judged in parallel under the
//! same limits, comparisons and checkers as stress ([`crate::stress`]), with
//! each test's verdict, time and peak memory.
//!
//! Results are handed over in the tests' order as soon as each one and all
//! before it are done, so a table can be printed while the rest run.
//! lockstep's own `--dump` sets (`JOB-INDEX.in`, `SEED.in`, each with its
//! `.ans`) are such directories.

use crate::compare::Comparison;
use crate::{judge, run_program, JudgeError, MemoryFigures, Verdict, Verdicts};
use lockstep_process::Resources;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

mod summary;

pub(crate) use summary::seconds;
pub use summary::TestLine;

/// Where a test's text is: a file, or held (a corpus row's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestText {
    File(PathBuf),
    Held(String),
}

impl TestText {
    fn read(&self) -> std::io::Result<String> {
        match self {
            TestText::File(path) => std::fs::read_to_string(path),
            TestText::Held(text) => Ok(text.clone()),
        }
    }
}

/// One test: its name, input and answer (none: it is run but not judged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestCase {
    pub name: String,
    pub input: TestText,
    pub answer: Option<TestText>,
}

/// Names in the order people number tests: `2` before `10`, `a2` before
/// `a10`; runs of digits compare as numbers, the rest as text.
pub fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (x, y) = (chunks(a), chunks(b));
    for (&(p_digits, p), &(q_digits, q)) in x.iter().zip(&y) {
        let order = if p_digits && q_digits {
            let (p, q) = (p.trim_start_matches('0'), q.trim_start_matches('0'));
            p.len().cmp(&q.len()).then_with(|| p.cmp(q))
        } else {
            p.cmp(q)
        };
        if order.is_ne() {
            return order;
        }
    }
    x.len().cmp(&y.len()).then_with(|| a.cmp(b))
}

/// The tests of a directory: every `NAME.in` with `NAME.ans`, else
/// `NAME.out`, in natural order of the names.
pub fn tests_in_dir(dir: &Path) -> std::io::Result<Vec<TestCase>> {
    let mut tests = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if !path.is_file() || path.extension().is_none_or(|e| e != "in") {
            continue;
        }
        let Some(name) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        let answer = ["ans", "out"]
            .iter()
            .map(|ext| path.with_extension(ext))
            .find(|p| p.is_file())
            .map(TestText::File);
        tests.push(TestCase {
            name,
            input: TestText::File(path),
            answer,
        });
    }
    tests.sort_by(|a, b| natural_order(&a.name, &b.name));
    Ok(tests)
}

/// How a test set is run.
#[derive(Debug, Clone)]
pub struct TestSetOptions {
    /// The solution's command.
    pub cmd: String,
    /// `checker input output answer` (testlib's), instead of `comparison`.
    pub checker: Option<String>,
    pub comparison: Comparison,
    /// The solution's limits.
    pub resources: Resources,
    /// The checker's time per run.
    pub checker_time: Duration,
    pub jobs: usize,
    /// A progress line on stderr (`N of M tests`, the time left).
    pub progress: bool,
}

/// How one test went; serialized, one test of `test`'s JSON document.
#[derive(Debug, Clone, serde::Serialize)]
pub struct JudgedTest {
    pub name: String,
    /// `None`: the test has no answer and the run exited cleanly, so its
    /// output was not judged (a run that crashed or hit a limit has its
    /// verdict, answer or not). In JSON the verdict's code, or null.
    #[serde(serialize_with = "summary::verdict_code_or_null")]
    pub verdict: Option<Verdict>,
    #[serde(rename = "time_ms", serialize_with = "summary::millis")]
    pub elapsed: Duration,
    /// The peak memory, when measured.
    #[serde(rename = "memory_bytes")]
    pub memory: Option<u64>,
    /// What went wrong (with the last line of the program's stderr where it
    /// tells why), why the test was not judged, or that it passed only when
    /// run again; `None` for a plain pass.
    pub detail: Option<String>,
    /// Passed only when run again: its first run's timing verdict (TLE, ILE).
    #[serde(skip)]
    pub flaky: Option<&'static str>,
}

impl JudgedTest {
    pub fn passed(&self) -> bool {
        self.verdict.as_ref().is_none_or(|v| *v == Verdict::Ok)
    }
}

/// A whole test set's results, in the tests' order: the value the text
/// report is drawn from, and, serialized, `test`'s JSON document.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TestSetOutcome {
    /// The solution's command.
    pub program: String,
    /// The comparison, or `checker CMD`.
    pub judged_by: String,
    #[serde(serialize_with = "summary::limits")]
    pub resources: Resources,
    #[serde(rename = "tests")]
    pub outcomes: Vec<JudgedTest>,
    /// By verdict; `skipped` counts the tests not judged.
    #[serde(serialize_with = "summary::test_counts")]
    pub counts: Verdicts,
    /// The median and largest time of the judged and unjudged runs alike.
    #[serde(rename = "time_ms", serialize_with = "summary::time_figures")]
    pub times: Option<(Duration, Duration)>,
    #[serde(rename = "memory_bytes")]
    pub memory: MemoryFigures,
    /// The wall time of the whole set.
    #[serde(rename = "elapsed_s", serialize_with = "summary::seconds")]
    pub elapsed: Duration,
}

impl TestSetOutcome {
    /// Tests without an answer whose runs exited cleanly: run, not judged.
    pub fn unjudged(&self) -> usize {
        self.outcomes.iter().filter(|o| o.verdict.is_none()).count()
    }
}

/// The median and largest of the tests' times.
fn median_and_largest(tests: &[JudgedTest]) -> Option<(Duration, Duration)> {
    let mut times: Vec<Duration> = tests.iter().map(|o| o.elapsed).collect();
    times.sort_unstable();
    Some((
        *times.get((times.len().checked_sub(1)?) / 2)?,
        *times.last()?,
    ))
}

/// A test's outcome, or why it could not be had.
type TestResult = Result<JudgedTest, JudgeError>;

/// One test run and judged; an error is a test that could not be read or a
/// checker that failed (the user's tool, not the solution).
fn run_test(
    test: &TestCase,
    options: &TestSetOptions,
    scratch: Option<&crate::checker::Scratch>,
) -> Result<JudgedTest, JudgeError> {
    let read = |text: &TestText| {
        text.read().map_err(|e| match text {
            TestText::File(path) => JudgeError::file(path, e),
            TestText::Held(_) => JudgeError::Tool(e.to_string()),
        })
    };
    let input = read(&test.input)?;
    let run = run_program(&options.cmd, &input, options.resources);
    let exited_well = matches!(run.ending, lockstep_process::ProgramEnd::Exited(s) if s.success());
    let verdict = match &test.answer {
        // Without an answer the output cannot be judged, but the ending can:
        // a crash or a limit is RE, TLE, MLE or OLE whatever the answer
        // would have been (`judge` decides those before it compares).
        None if exited_well => None,
        None => Some(judge("", &run, options.comparison)),
        Some(answer) => {
            let answer = read(answer)?;
            match (&options.checker, scratch) {
                (Some(checker), Some(scratch)) if exited_well => {
                    let limits = Resources::new(
                        options.checker_time,
                        lockstep_process::DEFAULT_OUTPUT_LIMIT,
                    );
                    let (verdict, _) = scratch.check(checker, &input, &run.stdout, &answer, limits);
                    Some(verdict.map_err(|e| {
                        JudgeError::Tool(format!("test {}: the checker failed: {e}", test.name))
                    })?)
                }
                _ => Some(judge(&answer, &run, options.comparison)),
            }
        }
    };
    let flaky = crate::flaky_code(&run);
    let said = run.stderr.lines().last().unwrap_or("").trim();
    Ok(JudgedTest {
        name: test.name.clone(),
        detail: summary::detail(verdict.as_ref(), flaky, run.memory, said, options),
        verdict,
        elapsed: run.elapsed,
        memory: run.memory,
        flaky,
    })
}

/// Runs every test on `options.jobs` threads; `each` gets every outcome in
/// the tests' order, as soon as it and those before it are done. The first
/// error (by test order) stops the set.
pub fn run_test_set(
    tests: &[TestCase],
    options: &TestSetOptions,
    each: &(dyn Fn(&JudgedTest) + Sync),
) -> Result<TestSetOutcome, JudgeError> {
    let scratch = match options.checker {
        Some(_) => Some(
            crate::checker::Scratch::new()
                .map_err(|e| JudgeError::Tool(format!("making the checker's directory: {e}")))?,
        ),
        None => None,
    };
    let next = AtomicUsize::new(0);
    // Each slot's result, and how many from the start were handed over.
    let done: Mutex<(Vec<Option<TestResult>>, usize)> =
        Mutex::new(((0..tests.len()).map(|_| None).collect(), 0));
    let failed = std::sync::atomic::AtomicBool::new(false);
    let line = |seconds: f64| {
        let finished = done.lock().map_or(0, |d| d.1) as u64;
        let far = lockstep_search::progress::how_far(
            finished,
            Some((tests.len() as u64, "tests")),
            seconds,
            None,
        );
        format!("test: {}, {seconds:.0} s", far.unwrap_or_default())
    };
    let elapsed = lockstep_search::jobs::run_jobs(
        options.jobs.min(tests.len()).max(1),
        |_| loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= tests.len() || failed.load(Ordering::Relaxed) || lockstep_stop::interrupted() {
                break;
            }
            let result = run_test(&tests[i], options, scratch.as_ref());
            // A signal killed its program under it: no verdict, and the
            // set stops with the tests done before it.
            if lockstep_stop::interrupted() {
                break;
            }
            if result.is_err() {
                failed.store(true, Ordering::Relaxed);
            }
            let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
            done.0[i] = Some(result);
            while let Some(Some(Ok(outcome))) = done.0.get(done.1) {
                each(outcome);
                done.1 += 1;
            }
        },
        options
            .progress
            .then_some(&line as lockstep_search::jobs::ProgressText<'_>),
    );
    let (results, _) = done.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut outcomes = Vec::with_capacity(tests.len());
    let mut counts = Verdicts::default();
    let mut memory = MemoryFigures::default();
    for result in results {
        match result {
            Some(Ok(outcome)) => {
                if let Some(verdict) = &outcome.verdict {
                    counts.add_one(verdict);
                    if outcome.flaky.is_some() && outcome.passed() {
                        counts.flaky += 1;
                    }
                } else {
                    counts.skipped += 1;
                }
                memory.add(outcome.memory);
                outcomes.push(outcome);
            }
            Some(Err(e)) => return Err(e),
            // Not run: an error before it stopped the set.
            None => {}
        }
    }
    Ok(TestSetOutcome {
        program: options.cmd.clone(),
        judged_by: match &options.checker {
            Some(checker) => format!("checker {checker}"),
            None => options.comparison.to_string(),
        },
        resources: options.resources,
        times: median_and_largest(&outcomes),
        outcomes,
        counts,
        memory,
        elapsed,
    })
}

#[cfg(test)]
mod tests;
