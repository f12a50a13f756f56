//! `lockstep stress`: a user's solution program against the oracle, on generated
//! cases, with the first failure shrunk by re-running the program.
//!
//! Each case is written in the judge format to the program's stdin; its stdout is
//! compared with the oracle's answer as a judge would (by default line by line,
//! trailing spaces and final newlines aside; see [`crate::compare`]). A case is
//! OK, WA (wrong answer), RE (non-zero exit or a signal), TLE (still running at
//! the time limit), MLE (over the memory limit) or OLE (more output than the
//! output limit). The first failure is shrunk with the puzzle's own shrinker,
//! keeping only candidates on which the program fails the same way, and saved.
//!
//! Programs run through [`crate::process`]: their own process group, orphans
//! adopted and killed, output read under a cap, the verdict by the main process.

use crate::compare::Comparison;
use crate::corpus::{self, Origin, Row};
use crate::generate::generate_case_within;
use crate::process::Limits;
use crate::puzzle::CaseLimits;
use crate::puzzle::Puzzle;
use crate::seeds::CASE_BYTES;
use crate::shrink::{shrink_within, Budget, Stop};
use lockstep_core::Model;
use lockstep_reference::Fuel;
use lockstep_reference::Naive;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub mod any;
pub mod interactive;
mod judging;

/// One run of the program ([`crate::process::execute`]).
pub use crate::process::Execution;
pub use judging::*;

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
    /// Bytes of peak memory per run; more is MLE. `None`: measured only.
    pub memory_limit: Option<u64>,
    /// How the program's output is compared with the oracle's.
    pub comparison: Comparison,
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
            memory: self.memory_limit,
        }
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
    /// Where a stress run's time went, in nanoseconds over all jobs.
    struct StressTimes / SharedStressTimes {
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
    /// The program's peak memory over the cases.
    pub memory: MemoryFigures,
    /// The first failure of each kind, shrunk, in the order WA, RE, TLE, MLE, OLE
    /// (only the first failure of all without `keep_going`).
    pub failures: Vec<ProgramFailure<C>>,
    /// Every failing case: its kind (`WA`, ...) and where it was generated,
    /// (job, index), sorted.
    pub failing: Vec<(&'static str, u64, u64)>,
}

/// A failing case as found: the case, its verdict, the oracle's output, the
/// program's run, and (job, index).
type FoundFailure<C> = (C, Judgement, String, Execution, (u64, u64));

/// Runs a stress campaign for one puzzle.
pub fn stress_puzzle<P: Puzzle>(options: &StressOptions) -> StressReport<P::Case> {
    let jobs = options.jobs.max(1) as u64;
    let start = Instant::now();
    let deadline = crate::seeds::deadline_after(start, options.seconds);
    let per_job = options.max_cases.map(|m| m.div_ceil(jobs));
    let shared = SharedCounts::default();
    let times = SharedStressTimes::default();
    let stop = AtomicBool::new(false);
    // The first case of each kind, and every failing case's place.
    let firsts: Mutex<Vec<FoundFailure<P::Case>>> = Mutex::new(Vec::new());
    let failing: Mutex<Vec<(&'static str, u64, u64)>> = Mutex::new(Vec::new());
    let memory = Mutex::new(MemoryFigures::default());

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
            let verdict = judge(&expected, &run, options.comparison);
            memory
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .add(run.memory);
            let total = before.elapsed();
            times.add(&mut StressTimes {
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
    let elapsed = crate::jobs::run_jobs(
        jobs as usize,
        job_loop,
        options
            .progress
            .then_some(&progress as crate::jobs::ProgressText<'_>),
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
        memory: memory.into_inner().unwrap_or_else(|e| e.into_inner()),
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
        match crate::process::execute(&options.cmd, &candidate.write_input(), options.limits()) {
            Ok(run) => judge(&expected, &run, options.comparison).code() == kind,
            Err(_) => false,
        }
    };
    let shrunk = shrink_within::<P>(case.clone(), still_fails, options.shrink);
    // Run the shrunk case once more for the report.
    let input = shrunk.case.write_input();
    let expected_shrunk = oracle_output::<P>(&shrunk.case, options.oracle).unwrap_or(expected);
    let (again, program) = match crate::process::execute(&options.cmd, &input, options.limits()) {
        Ok(again) => (judge(&expected_shrunk, &again, options.comparison), again),
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
                Judgement::MemoryLimit => "over the memory limit".to_string(),
                Judgement::OutputLimit => "over the output limit".to_string(),
                Judgement::Ok => "passed when run again: not deterministic".to_string(),
            }
        ),
        signature: format!(
            "{}:stress-{}:{}",
            P::MODULE,
            failure.failed.slug(),
            crate::signature::first_line_difference(&failure.program.stdout, &failure.expected)
        ),
    }
}
