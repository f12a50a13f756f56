//! `lockstep stress`: a user's solution program against the oracle, on generated
//! cases, with the first failure shrunk by re-running the program.
//!
//! Each case is written in the judge format to the program's stdin; its stdout is
//! compared with the oracle's answer as a judge would (trailing spaces and final
//! newlines do not count). A case is OK, WA (wrong answer), RE (non-zero exit or a
//! signal), TLE (still running at the time limit) or OLE (more output than the
//! output limit). The first failure is shrunk with the puzzle's own shrinker,
//! keeping only candidates on which the program fails the same way, and saved.
//!
//! Programs run through [`crate::process`]: their own process group, orphans
//! adopted and killed, output read under a cap, the verdict by the main process.

use crate::corpus::{self, Origin, Row};
use crate::generate::generate_case_within;
use crate::process::{Ending, Limits};
use crate::puzzle::CaseLimits;
use crate::puzzle::Puzzle;
use crate::seeds::CASE_BYTES;
use crate::shrink::{shrink_within, Budget, Stop};
use lockstep_core::Model;
use lockstep_reference::Fuel;
use lockstep_reference::Naive;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub mod any;

/// Which solver gives the expected answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oracle {
    Core,
    Reference,
}

#[derive(Debug, Clone)]
pub struct StressOptions {
    pub cmd: String,
    pub max_cases: Option<u64>,
    pub seconds: f64,
    /// Wall time per run of the program.
    pub timeout: Duration,
    /// Bytes of output per run; more is OLE.
    pub output_limit: usize,
    pub seed: u64,
    pub jobs: usize,
    pub oracle: Oracle,
    pub progress: bool,
    /// Which cases the generator makes (a judge's tests keep to the original).
    pub case_limits: CaseLimits,
    /// Run every case instead of stopping at the first failure; the first
    /// failure of each kind is shrunk.
    pub keep_going: bool,
    /// What shrinking one failure may cost.
    pub shrink: Budget,
    /// Write every generated input (`<job>-<index>.in`) and the oracle's answer
    /// (`.ans`) here.
    pub dump: Option<std::path::PathBuf>,
}

/// The default shrink budget: candidates, and seconds.
pub const DEFAULT_SHRINK: Budget = Budget {
    attempts: 3000,
    time: Some(Duration::from_secs(60)),
};

impl StressOptions {
    /// The limits of one run.
    pub fn limits(&self) -> Limits {
        Limits {
            time: self.timeout,
            output: self.output_limit,
        }
    }
}

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
            Judgement::OutputLimit => "OLE",
        }
    }

    fn slug(&self) -> &'static str {
        match self {
            Judgement::Ok => "ok",
            Judgement::WrongAnswer { .. } => "wrong-answer",
            Judgement::RuntimeError { .. } => "runtime-error",
            Judgement::TimeLimit => "time-limit",
            Judgement::OutputLimit => "output-limit",
        }
    }
}

/// One run of the program ([`crate::process::run`]).
pub use crate::process::Execution;

fn describe_status(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => "unknown exit".to_string(),
    }
}

/// The last lines of a program's stderr, for a report.
fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// The first line where two outputs differ (trailing spaces and final newlines
/// ignored), bounded: long lines are cut.
pub fn line_diff(expected: &str, got: &str) -> String {
    crate::text::first_difference("expected", expected, "got", got)
}

/// The program under test run on `input`; one that cannot start is a
/// runtime error (exit code 127, as a shell would give), not an error of
/// lockstep's.
pub fn run_program(cmd: &str, input: &str, limits: Limits) -> Execution {
    crate::process::run(cmd, input, limits).unwrap_or_else(|e| Execution {
        ending: Ending::Exited(ExitStatus::from_raw(127 << 8)),
        stdout: String::new(),
        stderr: format!("could not start: {e}"),
        elapsed: Duration::ZERO,
    })
}

/// Judges one program run against the oracle's output.
pub fn judge(expected: &str, run: &Execution) -> Judgement {
    match run.ending {
        Ending::TimeLimit => Judgement::TimeLimit,
        Ending::OutputLimit => Judgement::OutputLimit,
        Ending::Exited(status) if !status.success() => Judgement::RuntimeError {
            status: describe_status(status),
            stderr: tail(&run.stderr, 10),
        },
        Ending::Exited(_) if crate::text::same_output(expected, &run.stdout) => Judgement::Ok,
        Ending::Exited(_) => Judgement::WrongAnswer {
            diff: line_diff(expected, &run.stdout),
        },
    }
}

/// The oracle's judge output for a case, or `None` when the reference runs out of
/// fuel on it.
pub fn oracle_output<P: Puzzle>(case: &P::Case, oracle: Oracle) -> Option<String> {
    let answer = match oracle {
        Oracle::Core => P::Case::solve(case).answer,
        Oracle::Reference => case.solve_naively(&mut Fuel::new(P::FUEL)).ok()?.answer,
    };
    Some(P::Case::write_answer(&answer))
}

crate::jobs::counters! {
    /// Counts of a stress run.
    pub struct Counts / SharedCounts {
        pub cases,
        pub ok,
        pub wrong_answer,
        pub runtime_error,
        pub time_limit,
        pub output_limit,
        /// Cases the reference oracle could not answer within its fuel (not run).
        pub skipped,
    }
}

impl Counts {
    /// `NAME: N cases, R cases/s: a OK, b WA, c RE, d TLE, e OLE`, no newline.
    pub fn line(&self, name: &str, elapsed: Duration) -> String {
        format!(
            "{name}: {} cases, {:.1} cases/s: {} OK, {} WA, {} RE, {} TLE, {} OLE",
            self.cases,
            self.cases as f64 / elapsed.as_secs_f64().max(1e-9),
            self.ok,
            self.wrong_answer,
            self.runtime_error,
            self.time_limit,
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
        let mut counts = Counts {
            cases: 1,
            ..Counts::default()
        };
        *match verdict {
            Judgement::Ok => &mut counts.ok,
            Judgement::WrongAnswer { .. } => &mut counts.wrong_answer,
            Judgement::RuntimeError { .. } => &mut counts.runtime_error,
            Judgement::TimeLimit => &mut counts.time_limit,
            Judgement::OutputLimit => &mut counts.output_limit,
        } += 1;
        counts
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

crate::jobs::counters! {
    /// Where a stress run's time went, in nanoseconds over all jobs.
    struct Times / SharedTimes {
        program,
        own,
    }
}

/// A failure of one kind (the first one), shrunk.
#[derive(Debug, Clone)]
pub struct ProgramFailure<C> {
    pub original: C,
    pub shrunk: C,
    pub shrink_attempts: usize,
    /// Whether shrinking reached a local minimum or was cut off.
    pub shrink_stop: Stop,
    /// How the case failed when it was found: the kind it was shrunk for, and
    /// what names the failure (its row, its saved file).
    pub failed: Judgement,
    /// The shrunk case run once more, for the report: a program that fails
    /// only now and then may pass it (`Ok`), which the report says.
    pub verdict: Judgement,
    pub input: String,
    pub expected: String,
    pub program: Execution,
    /// Where the original case was generated: (job, index).
    pub at: (u64, u64),
}

#[derive(Debug, Clone)]
pub struct StressReport<C> {
    pub counts: Counts,
    pub elapsed: Duration,
    /// Total time spent inside program runs (start to exit), over all jobs.
    pub program_time: Duration,
    /// Total time spent on everything else per case (generation, oracle,
    /// comparison), over all jobs.
    pub own_time: Duration,
    /// The first failure of each kind, shrunk, in the order WA, RE, TLE, OLE
    /// (only the first failure of all without `keep_going`).
    pub failures: Vec<ProgramFailure<C>>,
    /// Every failing case: its kind (`WA`, ...) and where it was generated,
    /// (job, index), sorted.
    pub failing: Vec<(&'static str, u64, u64)>,
}

/// Checks that the command can be started at all, so that a typo is one clear
/// error rather than a runtime error on every case. The program gets an empty
/// input and `limits`; running out of time there is fine (it started).
pub fn check_command(cmd: &str, limits: Limits) -> Result<(), String> {
    match crate::process::run(cmd, "", limits) {
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

/// A failing case as found: the case, its verdict, the oracle's output, the
/// program's run, and (job, index).
type Found<C> = (C, Judgement, String, Execution, (u64, u64));

/// The order failure kinds are reported and shrunk in.
const KINDS: [&str; 4] = ["WA", "RE", "TLE", "OLE"];

/// Runs a stress campaign for one puzzle.
pub fn run<P: Puzzle>(options: &StressOptions) -> StressReport<P::Case> {
    let jobs = options.jobs.max(1) as u64;
    let start = Instant::now();
    let deadline = crate::seeds::deadline_after(start, options.seconds);
    let per_job = options.max_cases.map(|m| m.div_ceil(jobs));
    let shared = SharedCounts::default();
    let times = SharedTimes::default();
    let stop = AtomicBool::new(false);
    // The first case of each kind, and every failing case's place.
    let firsts: Mutex<Vec<Found<P::Case>>> = Mutex::new(Vec::new());
    let failing: Mutex<Vec<(&'static str, u64, u64)>> = Mutex::new(Vec::new());

    let job_loop = |job: u64| {
        let mut buf = vec![0u8; CASE_BYTES];
        let mut index = 0u64;
        while !stop.load(Ordering::Relaxed)
            && deadline.is_none_or(|d| Instant::now() < d)
            && per_job.is_none_or(|cap| index < cap)
        {
            let before = Instant::now();
            let this = index;
            index += 1;
            let Some(case) =
                generate_case_within::<P>(options.seed, job, this, &mut buf, options.case_limits)
            else {
                continue;
            };
            let Some(expected) = oracle_output::<P>(&case, options.oracle) else {
                shared.add(&mut Counts {
                    skipped: 1,
                    ..Counts::default()
                });
                continue;
            };
            let input = case.write_input();
            if let Some(dir) = &options.dump {
                // Best effort: a full disk must not stop the run.
                let _ = std::fs::write(dir.join(format!("{job}-{this}.in")), &input);
                let _ = std::fs::write(dir.join(format!("{job}-{this}.ans")), &expected);
            }
            let run = run_program(&options.cmd, &input, options.limits());
            // A signal is stopping lockstep and killed the program:
            // what this run says is not the program's doing.
            if crate::process::interrupted() {
                break;
            }
            let verdict = judge(&expected, &run);
            let total = before.elapsed();
            times.add(&mut Times {
                program: run.elapsed.as_nanos() as u64,
                own: total.saturating_sub(run.elapsed).as_nanos() as u64,
            });
            // A case costs a process start: one flush per case is nothing.
            shared.add(&mut Counts::one(&verdict));
            if verdict != Judgement::Ok {
                let kind = verdict.code();
                failing
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((kind, job, this));
                let mut firsts = firsts.lock().unwrap_or_else(|e| e.into_inner());
                // Without keep-going only the very first failure counts.
                let wanted = if options.keep_going {
                    !firsts.iter().any(|f| f.1.code() == kind)
                } else {
                    firsts.is_empty()
                };
                if wanted {
                    firsts.push((case, verdict, expected, run, (job, this)));
                }
                if !options.keep_going {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    };
    let progress = |secs: f64| shared.get().progress(P::NAME, secs);
    let elapsed = crate::jobs::run(
        jobs as usize,
        job_loop,
        options
            .progress
            .then_some(&progress as crate::jobs::Message<'_>),
    );
    let counts = shared.get();
    let times = times.get();
    let mut firsts = firsts.into_inner().unwrap_or_else(|e| e.into_inner());
    firsts.sort_by_key(|f| KINDS.iter().position(|&k| k == f.1.code()));
    let failures = firsts
        .into_iter()
        .map(|(case, verdict, expected, run, at)| {
            shrink_failure::<P>(options, case, verdict, expected, run, at)
        })
        .collect();
    let mut failing = failing.into_inner().unwrap_or_else(|e| e.into_inner());
    failing.sort_by_key(|&(kind, job, index)| (KINDS.iter().position(|&k| k == kind), job, index));
    StressReport {
        counts,
        elapsed,
        program_time: Duration::from_nanos(times.program),
        own_time: Duration::from_nanos(times.own),
        failures,
        failing,
    }
}

/// Shrinks a failing case while the program fails on it the same way (same
/// verdict kind), re-running the program on every candidate, within the
/// options' budget.
fn shrink_failure<P: Puzzle>(
    options: &StressOptions,
    case: P::Case,
    verdict: Judgement,
    expected: String,
    run: Execution,
    at: (u64, u64),
) -> ProgramFailure<P::Case> {
    let kind = verdict.code();
    let still_fails = |candidate: &P::Case| {
        // Their program need not handle a case outside the run's limits.
        if !options.case_limits.admits::<P>(candidate) {
            return false;
        }
        let Some(expected) = oracle_output::<P>(candidate, options.oracle) else {
            return false;
        };
        match crate::process::run(&options.cmd, &candidate.write_input(), options.limits()) {
            Ok(run) => judge(&expected, &run).code() == kind,
            Err(_) => false,
        }
    };
    let shrunk = shrink_within::<P>(case.clone(), still_fails, options.shrink);
    // Run the shrunk case once more for the report.
    let input = shrunk.case.write_input();
    let expected_shrunk = oracle_output::<P>(&shrunk.case, options.oracle).unwrap_or(expected);
    let (again, program) = match crate::process::run(&options.cmd, &input, options.limits()) {
        Ok(again) => (judge(&expected_shrunk, &again), again),
        Err(_) => (verdict.clone(), run),
    };
    ProgramFailure {
        original: case,
        shrunk: shrunk.case,
        shrink_attempts: shrunk.attempts,
        shrink_stop: shrunk.stop,
        failed: verdict,
        verdict: again,
        input,
        expected: expected_shrunk,
        program,
        at,
    }
}

/// The corpus row for a stress failure: the oracle's answer as expected.
pub fn failure_row<P: Puzzle>(failure: &ProgramFailure<P::Case>, cmd: &str) -> Row {
    // A short hash of the input keeps names of different failures apart.
    let mut digest = lockstep_core::digest::Digest::new();
    for chunk in failure.input.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        digest.push(u64::from_le_bytes(word));
    }
    Row {
        name: format!(
            "stress-{}-{:06x}",
            failure.failed.slug(),
            digest.value() & 0xff_ffff
        ),
        input: corpus::encode_for::<P>(&failure.input),
        expected: corpus::encode_for::<P>(&failure.expected),
        origin: Origin::Stress,
        note: format!(
            "{}; {} from `{cmd}`: {}",
            P::describe(&failure.shrunk),
            failure.failed.code(),
            match &failure.verdict {
                Judgement::WrongAnswer { diff } => diff.clone(),
                Judgement::RuntimeError { status, .. } => status.clone(),
                Judgement::TimeLimit => "over the time limit".to_string(),
                Judgement::OutputLimit => "over the output limit".to_string(),
                Judgement::Ok => "passed when run again: not deterministic".to_string(),
            }
        ),
    }
}
