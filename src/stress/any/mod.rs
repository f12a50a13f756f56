//! `lockstep stress --gen G --brute B --cmd C`: stress for any problem, with
//! the user's generator, brute force and solution, and the failing input shrunk
//! with no knowledge of its format ([`crate::shrink::text`]).
//!
//! Case `n` of a run is the generator's output for seed `SEED + n` (the seed is
//! appended as the generator's last argument, testlib's convention), so a case
//! is named by its seed, made again by running the generator by hand, and the
//! same whatever `--jobs` is. The brute force's output is the expected answer;
//! the solution is judged as in puzzle stress (OK, WA, RE, TLE, MLE, OLE, through
//! [`crate::process`] and the same limits), or by the checker when one is given
//! (testlib's `checker input output answer`: exit 0 accepts, 3 is the checker's
//! own failure, any other code a wrong answer).
//!
//! The generator, validator, brute force and checker are the user's tools, not
//! the program under test: when one of them fails on a generated input the run
//! stops with that error (exit 2) instead of blaming the solution. While
//! shrinking, their failures are information instead: a candidate the
//! validator rejects or the brute force cannot answer is invalid, which is how
//! the shrinker learns the input's counts.

use super::{judge, run_program, Counts, Judgement, MemoryFigures, SharedCounts, KINDS};
use crate::compare::Comparison;
use crate::process::{Ending, Execution, Limits};
use crate::shrink::text::{self, ShrunkText, Size, Trial};
use crate::shrink::Budget;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod checker;
mod generator;
mod report;

pub(crate) use checker::{tool, Scratch};
use generator::InputSample;

/// The user's programs.
#[derive(Debug, Clone)]
pub struct Programs {
    /// Prints an input; run with a seed as its last argument.
    pub generator: String,
    /// Prints the expected output.
    pub brute: String,
    /// The solution under test.
    pub solution: String,
    /// `checker input output answer`, for problems with several right answers.
    pub checker: Option<String>,
    /// Reads an input on stdin; exit 0 means valid.
    pub validator: Option<String>,
}

#[derive(Debug, Clone)]
pub struct AnyOptions {
    pub programs: Programs,
    pub max_cases: Option<u64>,
    pub seconds: f64,
    /// The solution's limits per run.
    pub limits: Limits,
    /// How the solution's output is compared with the brute force's (when
    /// there is no checker).
    pub comparison: Comparison,
    /// The generator's, validator's, brute force's and checker's time per run.
    pub helper_time: Duration,
    /// The first case's seed; case n gets `seed + n`.
    pub seed: u64,
    pub jobs: usize,
    pub progress: bool,
    pub keep_going: bool,
    pub shrink: Budget,
    /// Write every generated input (`SEED.in`) and the brute force's answer
    /// (`SEED.ans`) here.
    pub dump: Option<PathBuf>,
}

impl AnyOptions {
    /// The tools' limits: their own time, and at least the default output
    /// limit, so that a low `--output-limit` aimed at the solution does not
    /// stop a generator or brute force that prints a large input or answer.
    fn helper_limits(&self) -> Limits {
        Limits::new(
            self.helper_time,
            self.limits.output.max(crate::process::DEFAULT_OUTPUT_LIMIT),
        )
    }

    /// The generator's command for one seed.
    pub fn generator_for(&self, seed: u64) -> String {
        format!("{} {seed}", self.programs.generator)
    }
}

crate::jobs::counters! {
    /// Where a run's time went, in nanoseconds over all jobs.
    pub struct AnyTimes / SharedAnyTimes {
        pub generator,
        pub validator,
        pub brute,
        pub solution,
        pub checker,
        /// Everything else: lockstep's own work per case.
        pub own,
    }
}

/// A failure of one kind (the first one), shrunk.
#[derive(Debug, Clone)]
pub struct AnyFailure {
    /// The generator's seed for the original input.
    pub seed: u64,
    pub original: String,
    pub shrunk: ShrunkText,
    pub shrink_time: Duration,
    /// How the original failed: the kind it was shrunk for.
    pub failed: Judgement,
    /// The shrunk input run once more (a flaky program may pass it: `Ok`).
    pub verdict: Judgement,
    /// The brute force's output on the shrunk input.
    pub expected: String,
    pub program: Execution,
    /// The generator made the original again when run once more on its
    /// seed (if not, a warning says so).
    pub replayable: bool,
}

#[derive(Debug, Clone)]
pub struct AnyReport {
    pub counts: Counts,
    pub elapsed: Duration,
    pub times: AnyTimes,
    /// The solution's peak memory over the cases.
    pub memory: MemoryFigures,
    pub failures: Vec<AnyFailure>,
    /// Every failing case: its kind and its seed, sorted.
    pub failing: Vec<(&'static str, u64)>,
    /// A tool that failed on a generated input, which stopped the run.
    pub problem: Option<String>,
    /// What is wrong with the generator (generator.rs), in words: warnings
    /// that change no verdict and no exit code.
    pub warnings: Vec<String>,
}

/// A stress run's shared state: the options and the checker's directory.
struct Stress<'a> {
    options: &'a AnyOptions,
    scratch: Option<Scratch>,
}

/// One case's inputs and outputs, as far as it got.
struct Case {
    input: String,
    expected: String,
    verdict: Judgement,
    /// The solution's peak memory.
    memory: Option<u64>,
}

impl Stress<'_> {
    /// The solution judged on `input` against `expected`.
    fn judge(
        &self,
        input: &str,
        expected: &str,
        run: &Execution,
        times: &mut AnyTimes,
    ) -> Result<Judgement, String> {
        match (&self.options.programs.checker, &self.scratch) {
            (Some(checker), Some(scratch)) if matches!(run.ending, Ending::Exited(s) if s.success()) =>
            {
                let (verdict, took) = scratch.check(
                    checker,
                    input,
                    &run.stdout,
                    expected,
                    self.options.helper_limits(),
                );
                times.checker += took.as_nanos() as u64;
                verdict.map_err(|e| format!("the checker failed: {e}"))
            }
            _ => Ok(judge(expected, run, self.options.comparison)),
        }
    }

    /// Case `seed`, start to verdict; an error names the tool that failed.
    fn case(&self, seed: u64, times: &mut AnyTimes) -> Result<Case, String> {
        let o = self.options;
        let helper = o.helper_limits();
        let generator = o.generator_for(seed);
        let (made, took) = tool(&generator, "", helper);
        times.generator += took.as_nanos() as u64;
        let input = made
            .map_err(|e| format!("the generator failed on seed {seed} (`{generator}`): {e}"))?
            .stdout;
        if let Some(dir) = &o.dump {
            // Best effort: a full disk must not stop the run.
            let _ = std::fs::write(dir.join(format!("{seed}.in")), &input);
        }
        let replay = format!("(`{generator}` makes it again)");
        if let Some(validator) = &o.programs.validator {
            let (valid, took) = tool(validator, &input, helper);
            times.validator += took.as_nanos() as u64;
            valid.map_err(|e| {
                format!("the validator rejects the generator's input for seed {seed} {replay}: {e}")
            })?;
        }
        let (brute, took) = tool(&o.programs.brute, &input, helper);
        times.brute += took.as_nanos() as u64;
        let expected = brute
            .map_err(|e| format!("the brute force failed on seed {seed} {replay}: {e}"))?
            .stdout;
        if let Some(dir) = &o.dump {
            let _ = std::fs::write(dir.join(format!("{seed}.ans")), &expected);
        }
        let program = run_program(&o.programs.solution, &input, o.limits);
        times.solution += program.elapsed.as_nanos() as u64;
        let verdict = self
            .judge(&input, &expected, &program, times)
            .map_err(|e| format!("on seed {seed} {replay}, {e}"))?;
        Ok(Case {
            input,
            expected,
            verdict,
            memory: program.memory,
        })
    }

    /// What the shrinker is told of a candidate input. With more than one
    /// job the validator, the brute force and the solution run at once: the
    /// wait is the slowest of them instead of their sum, and a solution run
    /// on an input found invalid is thrown away.
    fn verdict_on(&self, input: &str, kind: &str) -> Trial {
        let o = self.options;
        let helper = o.helper_limits();
        let validate = || {
            o.programs
                .validator
                .as_ref()
                .is_none_or(|v| tool(v, input, helper).0.is_ok())
        };
        let brute = || tool(&o.programs.brute, input, helper).0;
        let solve = || run_program(&o.programs.solution, input, o.limits);
        let (valid, brute, run) = if o.jobs > 1 {
            std::thread::scope(|scope| {
                let valid = scope.spawn(validate);
                let brute = scope.spawn(brute);
                let run = solve();
                (
                    valid.join().unwrap_or(false),
                    brute.join().unwrap_or_else(|_| Err(String::new())),
                    Some(run),
                )
            })
        } else {
            // One at a time, and nothing run past an invalid verdict.
            let valid = validate();
            let brute = if valid { brute() } else { Err(String::new()) };
            (valid, brute, None)
        };
        let (true, Ok(brute)) = (valid, brute) else {
            return Trial::Invalid;
        };
        let run = run.unwrap_or_else(solve);
        match self.judge(input, &brute.stdout, &run, &mut AnyTimes::default()) {
            Ok(verdict) if verdict.code() == kind => Trial::Fails,
            Ok(_) => Trial::Passes,
            // A checker that gives up on an input calls it invalid.
            Err(_) => Trial::Invalid,
        }
    }
}

/// A failing case as found: its seed and the case.
type SeedCase = (u64, Case);

/// Runs a stress campaign on the user's programs; an error only when the
/// checker's directory cannot be made.
pub fn stress_any(options: &AnyOptions) -> std::io::Result<AnyReport> {
    let stress = Stress {
        options,
        scratch: match options.programs.checker {
            Some(_) => Some(Scratch::new()?),
            None => None,
        },
    };
    let start = Instant::now();
    let deadline = crate::seeds::deadline_after(start, options.seconds);
    let next = AtomicU64::new(0);
    let shared = SharedCounts::default();
    let times = SharedAnyTimes::default();
    let stop = AtomicBool::new(false);
    let firsts: Mutex<Vec<SeedCase>> = Mutex::new(Vec::new());
    let failing: Mutex<Vec<(&'static str, u64)>> = Mutex::new(Vec::new());
    let problem: Mutex<Option<(u64, String)>> = Mutex::new(None);
    let memory = Mutex::new(MemoryFigures::default());
    let sample = InputSample::default();

    let job_loop = |_job: u64| loop {
        if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let n = next.fetch_add(1, Ordering::Relaxed);
        if options.max_cases.is_some_and(|cap| n >= cap) {
            break;
        }
        let seed = options.seed.wrapping_add(n);
        let before = Instant::now();
        let mut spent = AnyTimes::default();
        let result = stress.case(seed, &mut spent);
        // A signal is stopping lockstep and killed the programs: what this
        // case says is not their doing.
        if crate::process::interrupted() {
            break;
        }
        let programs =
            spent.generator + spent.validator + spent.brute + spent.solution + spent.checker;
        spent.own = (before.elapsed().as_nanos() as u64).saturating_sub(programs);
        times.add(&mut spent);
        let case = match result {
            Ok(case) => case,
            Err(message) => {
                // The lowest seed's problem is reported: the one a rerun meets first.
                let mut problem = problem.lock().unwrap_or_else(|e| e.into_inner());
                if problem.as_ref().is_none_or(|(s, _)| seed < *s) {
                    *problem = Some((seed, message));
                }
                stop.store(true, Ordering::Relaxed);
                break;
            }
        };
        sample.record(n, seed, &case.input);
        shared.add(&mut Counts::one(&case.verdict));
        memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .add(case.memory);
        if case.verdict == Judgement::Ok {
            continue;
        }
        let kind = case.verdict.code();
        failing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((kind, seed));
        let mut firsts = firsts.lock().unwrap_or_else(|e| e.into_inner());
        // Per kind, the lowest seed: the same failure whatever the jobs.
        match firsts.iter_mut().find(|f| f.1.verdict.code() == kind) {
            Some(first) if seed < first.0 => *first = (seed, case),
            Some(_) => {}
            None => firsts.push((seed, case)),
        }
        if !options.keep_going {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let progress = |secs: f64| shared.get().progress("stress", secs);
    let elapsed = crate::jobs::run_jobs(
        options.jobs,
        job_loop,
        options
            .progress
            .then_some(&progress as crate::jobs::ProgressText<'_>),
    );
    let mut problem = problem.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut firsts = firsts.into_inner().unwrap_or_else(|e| e.into_inner());
    firsts.sort_by_key(|f| KINDS.iter().position(|&k| k == f.1.verdict.code()));
    if !options.keep_going {
        // Without keep-going, only the first failure of all (by seed).
        firsts.sort_by_key(|f| f.0);
        firsts.truncate(1);
        // The lower seed of a failure and a tool's problem is what one job
        // would have met first: the other comes from a job running ahead.
        match (&problem, firsts.first()) {
            (Some((at, _)), Some(first)) if first.0 < *at => problem = None,
            (Some(_), Some(_)) => firsts.clear(),
            _ => {}
        }
    }
    let mut warnings: Vec<String> = sample.warning().into_iter().collect();
    // With a broken tool nothing is shrunk: every candidate would be judged by it.
    let failures = if problem.is_some() || crate::process::interrupted() {
        Vec::new()
    } else {
        firsts
            .into_iter()
            .map(|(seed, case)| {
                // Before shrinking: the report will say `GEN SEED` makes it.
                let rerun = generator::rerun_warning(options, seed, &case.input);
                let replayable = rerun.is_none();
                warnings.extend(rerun);
                AnyFailure {
                    replayable,
                    ..stress.shrink(seed, case)
                }
            })
            .collect()
    };
    let mut failing = failing.into_inner().unwrap_or_else(|e| e.into_inner());
    failing.sort_by_key(|&(kind, seed)| (KINDS.iter().position(|&k| k == kind), seed));
    Ok(AnyReport {
        counts: shared.get(),
        elapsed,
        times: times.get(),
        memory: memory.into_inner().unwrap_or_else(|e| e.into_inner()),
        failures,
        failing,
        problem: problem.map(|(_, message)| message),
        warnings,
    })
}

impl Stress<'_> {
    /// Shrinks a failing case while the solution fails on it the same way,
    /// showing how far it got when the options ask for progress.
    fn shrink(&self, seed: u64, case: Case) -> AnyFailure {
        let kind = case.verdict.code();
        let start = Instant::now();
        let tokens = AtomicUsize::new(Size::of(&case.input).tokens);
        let attempts = AtomicUsize::new(0);
        let shrunk = std::thread::scope(|scope| {
            let work = scope.spawn(|| {
                text::shrink(
                    &case.input,
                    |candidate| self.verdict_on(candidate, kind),
                    self.options.shrink,
                    &mut |size, tried| {
                        tokens.store(size.tokens, Ordering::Relaxed);
                        attempts.store(tried, Ordering::Relaxed);
                    },
                )
            });
            if self.options.progress {
                let before = Size::of(&case.input).tokens;
                // Finished, or panicked: either way the line must stop.
                crate::progress::watch(
                    start,
                    || work.is_finished(),
                    |secs| {
                        format!(
                            "shrinking the {kind} of seed {seed}: {before} -> {} tokens, {} candidates, {secs:.0} s",
                            tokens.load(Ordering::Relaxed),
                            attempts.load(Ordering::Relaxed)
                        )
                    },
                );
            }
            work.join().expect("the shrinker does not panic")
        });
        let shrink_time = start.elapsed();
        // The shrunk input once more, for the report.
        let helper = self.options.helper_limits();
        let expected = tool(&self.options.programs.brute, &shrunk.text, helper)
            .0
            .map_or_else(|_| case.expected.clone(), |run| run.stdout);
        let program = run_program(
            &self.options.programs.solution,
            &shrunk.text,
            self.options.limits,
        );
        let verdict = self
            .judge(&shrunk.text, &expected, &program, &mut AnyTimes::default())
            .unwrap_or_else(|_| case.verdict.clone());
        AnyFailure {
            seed,
            original: case.input,
            shrunk,
            shrink_time,
            failed: case.verdict,
            verdict,
            expected,
            program,
            replayable: true,
        }
    }
}
