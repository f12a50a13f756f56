//! `lockstep stress PUZZLE`: a user's solution program against the oracle, on
//! generated cases, with the first failure shrunk by re-running the program.
//!
//! Each case is written in the judge format to the program's stdin; its stdout is
//! compared with the oracle's answer as a judge would (by default line by line,
//! trailing spaces and final newlines aside; see [`lockstep_judge::compare`]). A case is
//! OK, WA (wrong answer), RE (non-zero exit or a signal), TLE (more CPU time
//! than the limit), ILE (still running at the wall-time backstop: a program
//! that sleeps or waits), MLE (over the memory limit) or OLE (more output
//! than the output limit). A time limit is confirmed by a second run before
//! it is a verdict; one that passes then is flaky, listed apart and no
//! failure. The first failure is shrunk with the puzzle's own shrinker,
//! keeping only candidates on which the program fails the same way, and saved.
//!
//! Programs run through [`lockstep_process`]: their own process group, orphans
//! adopted and killed, output read under a cap, the verdict by the main process.

use lockstep_core::Model;
use lockstep_harness::puzzle::{CaseLimits, CaseWithReference, Joinable, Puzzle};
use lockstep_harness::shrink::Sideways;
use lockstep_harness::shrink::{shrink_within, Stop};
use lockstep_judge::{judge, run_program, Comparison, Failed, MemoryFigures, Verdict, Verdicts};
use lockstep_process::Execution;
use lockstep_process::Resources;
use lockstep_reference::Fuel;
use lockstep_reference::Naive;
use lockstep_search::shrinking::Keep;
use lockstep_search::{Address, Check, Checked, Plan};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Which solver gives the expected answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oracle {
    Core,
    Reference,
}

#[derive(Debug, Clone)]
pub struct StressOptions {
    /// The search: seed, time, cases, jobs, keep-going, shrink budget.
    pub plan: Plan,
    pub cmd: String,
    /// What each run of the program may use: time, output, memory.
    pub resources: Resources,
    /// How the program's output is compared with the oracle's.
    pub comparison: Comparison,
    pub oracle: Oracle,
    /// Which cases the generator makes (a judge's tests keep to the original).
    pub limits: CaseLimits,
    /// Write every generated input (`<job>-<index>.in`) and the oracle's answer
    /// (`.ans`) here.
    pub dump: Option<std::path::PathBuf>,
    /// Where a failing input is kept as soon as it is found and as it
    /// shrinks ([`Keep`]).
    pub keep: Option<Keep>,
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

/// Where a stress run's time went, in nanoseconds over all jobs.
#[derive(Default)]
struct StressTimes {
    program: AtomicU64,
    own: AtomicU64,
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
    pub failed: Verdict,
    /// The shrunk case run once more, for the report: a program that fails
    /// only now and then may pass it (`Ok`), which the report says.
    pub verdict: Verdict,
    pub input: String,
    pub expected: String,
    pub program: Execution,
    /// Where the original case was generated.
    pub at: Address,
}

#[derive(Debug, Clone)]
pub struct StressOutcome<C> {
    pub counts: Verdicts,
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
    /// by kind, then in the order of the cases.
    pub failing: Vec<(Failed, Address)>,
    /// Every case that passed only when run again, with its first run's
    /// timing verdict, in the order of the cases.
    pub flaky: Vec<(&'static str, Address)>,
    /// Where a run that stopped before its end resumes ([`lockstep_search::Resume`]).
    pub resume: Option<lockstep_search::Resume>,
}

/// A failing case as found: the case, its verdict and the oracle's output
/// (the program is run on it again once it is shrunk).
pub struct FoundFailure<C> {
    case: C,
    verdict: Verdict,
    expected: String,
    /// The program's run on it.
    run: Execution,
}

/// The check of puzzle stress: the program against the oracle on one case.
struct AgainstOracle<'a, P> {
    options: &'a StressOptions,
    times: StressTimes,
    memory: Mutex<MemoryFigures>,
    puzzle: std::marker::PhantomData<fn() -> P>,
}

/// Positions a job takes at once when a program runs over many cases in
/// one input (`--exhaustive`, a puzzle whose judge format takes many): one
/// program start for the valid cases among them.
const JOINED: u64 = 64;

impl<P: Joinable> AgainstOracle<'_, P> {
    /// One case in one run of the program.
    fn one(
        &self,
        address: Address,
        case: P::Case,
        counts: &mut Verdicts,
        out: &mut Vec<Checked<FoundFailure<P::Case>>>,
    ) {
        let options = self.options;
        let before = Instant::now();
        let Some(expected) = oracle_output::<P>(&case, options.oracle) else {
            counts.skipped += 1;
            out.push(Checked::Skip);
            return;
        };
        let input = case.write_input();
        if let Some(dir) = &options.dump {
            // Best effort: a full disk must not stop the run.
            let stem = address.file_stem();
            let _ = std::fs::write(dir.join(format!("{stem}.in")), &input);
            let _ = std::fs::write(dir.join(format!("{stem}.ans")), &expected);
        }
        let (verdict, run) = self.run(&input, &expected, before);
        counts.add_run(&verdict, &run);
        let flaky = lockstep_judge::flaky_code(&run);
        out.push(match (verdict, flaky) {
            (Verdict::Ok, None) => Checked::Pass,
            (Verdict::Ok, Some(code)) => Checked::Flaky(code),
            (verdict, _) => Checked::Fail(FoundFailure {
                case,
                verdict,
                expected,
                run,
            }),
        });
    }

    /// The program on `input`, judged against `expected`, its time and
    /// memory counted.
    fn run(&self, input: &str, expected: &str, before: Instant) -> (Verdict, Execution) {
        let options = self.options;
        let run = run_program(&options.cmd, input, options.resources);
        let verdict = judge(expected, &run, options.comparison);
        self.memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .add(run.memory);
        let total = before.elapsed();
        self.times
            .program
            .fetch_add(run.elapsed.as_nanos() as u64, Ordering::Relaxed);
        self.times.own.fetch_add(
            total.saturating_sub(run.elapsed).as_nanos() as u64,
            Ordering::Relaxed,
        );
        (verdict, run)
    }

    /// The cases in one run of the program, when they join into one input
    /// within the run's limits that the oracle answers: each case passes
    /// when the whole passes. Otherwise each case runs alone, so that every
    /// case gets its own verdict; when each passes alone and the joined
    /// input got a wrong answer or crashed, the joined input is the failure,
    /// placed at the first case (a program that keeps state from one case
    /// to the next). A joined input over the time, memory or output limit
    /// whose cases each pass alone is no failure: the limits are per case,
    /// and the joining is lockstep's. `false`: not joined, nothing run.
    fn joined(
        &self,
        cases: &[(Address, CaseWithReference<P>)],
        counts: &mut Verdicts,
        out: &mut Vec<Checked<FoundFailure<P::Case>>>,
    ) -> bool {
        let options = self.options;
        let all: Vec<P::Case> = cases.iter().map(|(_, (case, _))| case.clone()).collect();
        let Some(joined) = P::join(&all).filter(|j| options.limits.admits::<P>(j)) else {
            return false;
        };
        let before = Instant::now();
        let Some(expected) = oracle_output::<P>(&joined, options.oracle) else {
            return false;
        };
        let (verdict, run) = self.run(&joined.write_input(), &expected, before);
        if matches!(verdict, Verdict::Ok) {
            for _ in cases {
                counts.add_one(&Verdict::Ok);
                out.push(Checked::Pass);
            }
            return true;
        }
        let (mut alone, mut results) = (Verdicts::default(), Vec::new());
        for (address, (case, _)) in cases {
            self.one(*address, case.clone(), &mut alone, &mut results);
        }
        let state_kept = matches!(
            verdict,
            Verdict::WrongAnswer(_) | Verdict::PresentationError(_) | Verdict::RuntimeError { .. }
        );
        if state_kept
            && results
                .iter()
                .all(|r| matches!(r, Checked::Pass | Checked::Flaky(_)))
        {
            alone = Verdicts::default();
            alone.add_one(&verdict);
            results[0] = Checked::Fail(FoundFailure {
                case: joined,
                verdict,
                expected,
                run,
            });
            for _ in 1..cases.len() {
                alone.add_one(&Verdict::Ok);
            }
        }
        lockstep_search::Tally::add(counts, alone);
        out.extend(results);
        true
    }
}

impl<P: Joinable> Check<CaseWithReference<P>> for AgainstOracle<'_, P> {
    type Found = FoundFailure<P::Case>;
    type Tally = Verdicts;

    fn batch(&self) -> u64 {
        let joins = P::join(&[]).is_some();
        match self.options.plan.enumerate.is_some() && joins && self.options.dump.is_none() {
            true => JOINED,
            false => 1,
        }
    }

    /// The sample before a run, on a copy that writes no `--dump` file and
    /// whose time and memory figures are dropped: the run's figures are its
    /// own cases'.
    fn sample(&self, cases: Vec<(Address, CaseWithReference<P>)>) {
        let options = StressOptions {
            dump: None,
            ..self.options.clone()
        };
        let copy = AgainstOracle::<P> {
            options: &options,
            times: StressTimes::default(),
            memory: Mutex::new(MemoryFigures::default()),
            puzzle: std::marker::PhantomData,
        };
        copy.check(cases, &mut Verdicts::default(), &mut Vec::new());
    }

    fn check(
        &self,
        cases: Vec<(Address, CaseWithReference<P>)>,
        counts: &mut Verdicts,
        out: &mut Vec<Checked<Self::Found>>,
    ) {
        if cases.len() > 1 && self.joined(&cases, counts, out) {
            return;
        }
        for (address, (case, _)) in cases {
            self.one(address, case, counts, out);
        }
    }

    type Kind = Failed;

    fn kind(&self, found: &Self::Found) -> Failed {
        found.verdict.failure()
    }

    fn progress(&self, c: &lockstep_search::Counts, secs: f64) -> String {
        lockstep_judge::stress::progress_line(P::NAME, c, secs)
    }
}

/// Runs a stress campaign for one puzzle.
pub fn stress_puzzle<P: Joinable + Sideways>(options: &StressOptions) -> StressOutcome<P::Case> {
    let check = AgainstOracle::<P> {
        options,
        times: StressTimes::default(),
        memory: Mutex::new(MemoryFigures::default()),
        puzzle: std::marker::PhantomData,
    };
    let source = lockstep_harness::seeded::puzzle_cases::<P>(&options.plan, options.limits);
    let outcome = lockstep_search::search(&options.plan, &*source, &check);
    let mut kept = outcome.failures;
    kept.sort_by_key(|f| f.found.verdict.failure());
    let failures = kept
        .into_iter()
        .map(|f| shrink_failure::<P>(options, f.found, f.address))
        .collect();
    let failing = lockstep_judge::by_kind(outcome.failing);
    StressOutcome {
        counts: outcome.tally,
        elapsed: outcome.elapsed,
        program_time: Duration::from_nanos(check.times.program.into_inner()),
        own_time: Duration::from_nanos(check.times.own.into_inner()),
        memory: check.memory.into_inner().unwrap_or_else(|e| e.into_inner()),
        failures,
        failing,
        flaky: outcome.flaky,
        resume: outcome.resume,
    }
}

/// Shrinks a failing case while the program fails on it the same way (same
/// verdict kind), re-running the program on every candidate, within the
/// options' budget. The case is kept ([`StressOptions::keep`]) as found and
/// at every step of the shrink; a signal ends the shrink at once, and the
/// report then shows the last failing candidate's run as it was (no
/// program runs once lockstep is stopping).
fn shrink_failure<P: Sideways>(
    options: &StressOptions,
    found: FoundFailure<P::Case>,
    at: Address,
) -> ProgramFailure<P::Case> {
    let FoundFailure {
        case,
        verdict,
        expected,
        run,
    } = found;
    let kind = verdict.code();
    let keep = |input: &str| {
        if let Some(keep) = &options.keep {
            keep.keep(kind, input);
        }
    };
    keep(&case.write_input());
    // The last failing candidate's expected output, run and verdict.
    let mut last = (expected, run, verdict.clone());
    let still_fails = |candidate: &P::Case| {
        // Their program need not handle a case outside the run's limits.
        if !options.limits.admits::<P>(candidate) {
            return false;
        }
        let Some(expected) = oracle_output::<P>(candidate, options.oracle) else {
            return false;
        };
        let input = candidate.write_input();
        let run = run_program(&options.cmd, &input, options.resources);
        let judged = judge(&expected, &run, options.comparison);
        // A run a signal cut short is no verdict (the shrink stops on it).
        let fails = judged.code() == kind && !lockstep_stop::interrupted();
        if fails {
            keep(&input);
            last = (expected, run, judged);
        }
        fails
    };
    let shrunk = match options.plan.enumerate {
        // Every case before it passed: nothing smaller to look for.
        Some(_) => lockstep_search::shrinking::Shrunk {
            case: case.clone(),
            attempts: 0,
            steps: 0,
            stop: Stop::Smallest,
        },
        None => shrink_within::<P>(case.clone(), still_fails, options.plan.shrink),
    };
    let input = shrunk.case.write_input();
    // Run the shrunk case once more for the report, unless lockstep is
    // stopping: then its last failing run is the report's.
    let (expected, program, again) = match lockstep_stop::interrupted() {
        true => last,
        false => {
            let expected = oracle_output::<P>(&shrunk.case, options.oracle).unwrap_or(last.0);
            let program = run_program(&options.cmd, &input, options.resources);
            let again = judge(&expected, &program, options.comparison);
            (expected, program, again)
        }
    };
    ProgramFailure {
        original: case,
        shrunk: shrunk.case,
        shrink_attempts: shrunk.attempts,
        shrink_stop: shrunk.stop,
        failed: verdict,
        verdict: again,
        input,
        expected,
        program,
        at,
    }
}

impl<C> ProgramFailure<C> {
    /// What the user reads of the failure: where it was found, how far it
    /// shrank, the input, both outputs and what went wrong.
    pub fn report<P: Puzzle<Case = C>>(&self, options: &StressOptions) -> String {
        let indent = lockstep_text::indent;
        format!(
            "{name}: {verdict} ({at}; shrunk from {original} to {shrunk}, {attempts} candidates run, {stop})\n\
             input:\n{input}\
             expected ({oracle}):\n{expected}\
             program printed:\n{printed}\
             {detail}",
            name = P::NAME,
            verdict = self.failed.code(),
            at = self.at,
            original = P::describe(&self.original),
            shrunk = P::describe(&self.shrunk),
            attempts = self.shrink_attempts,
            stop = self.shrink_stop,
            input = indent(&self.input),
            oracle = match options.oracle {
                Oracle::Core => "core",
                Oracle::Reference => "reference",
            },
            expected = indent(&self.expected),
            printed = indent(&self.program.stdout),
            detail = self.verdict.detail(
                &self.program,
                &options.resources,
                "passed when run again: the failure is not deterministic"
            ),
        ) + &outside_original::<P>(&self.shrunk)
    }
}

/// The line a report ends with when its case is outside the original
/// statement's limits (a run under `--limits wide`): a judge's tests would
/// not hold it, so the user knows it before debugging it.
fn outside_original<P: Puzzle>(case: &P::Case) -> String {
    match P::within_original(case) {
        true => String::new(),
        false => "note: this case is outside the original statement's limits (docs/guide/src/rules/): a judge's tests would not hold it; --limits original keeps to them\n".to_string(),
    }
}
