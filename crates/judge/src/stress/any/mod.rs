//! `lockstep stress --gen G --brute B --cmd C`: stress for any problem, with
//! the user's generator, brute force and solution, and the failing input shrunk
//! with no knowledge of its format ([`crate::shrink`]).
//!
//! Case `n` of a run is the generator's output for seed `SEED + n` (the seed is
//! appended as the generator's last argument, testlib's convention), so a case
//! is named by its seed, made again by running the generator by hand, and the
//! same whatever `--jobs` is. The brute force's output is the expected answer;
//! the solution is judged as in puzzle stress (OK, WA, RE, TLE, MLE, OLE, through
//! [`lockstep_process`] and the same limits), or by the checker when one is given
//! (testlib's `checker input output answer`: exit 0 accepts, 3 is the checker's
//! own failure, any other code a wrong answer).
//!
//! The generator, validator, brute force and checker are the user's tools, not
//! the program under test: when one of them fails on a generated input the run
//! stops with that error (exit 2) instead of blaming the solution. While
//! shrinking, their failures are information instead: a candidate the
//! validator rejects or the brute force cannot answer is invalid, which is how
//! the shrinker learns the input's counts.

use super::generator::Printed;
use crate::checker::Scratch;
use crate::shrink::{ShrunkText, Trial};
use crate::{judge, run_program, tool, Comparison, Failed, MemoryFigures, Verdict, Verdicts};
use lockstep_process::{Execution, ProgramEnd};
use lockstep_search::{Address, Check, Checked};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod summary;

use super::GeneratorOptions;

#[derive(Debug, Clone)]
pub struct AnyOptions {
    /// The search, the generator, the solution, its checker and validator,
    /// the resources of each run.
    pub run: GeneratorOptions,
    /// Prints the expected output.
    pub brute: String,
    /// How the solution's output is compared with the brute force's (when
    /// there is no checker).
    pub comparison: Comparison,
}

/// Where a run's time went, in nanoseconds over all jobs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AnyTimes {
    pub generator: u64,
    pub validator: u64,
    pub brute: u64,
    pub solution: u64,
    pub checker: u64,
    /// Everything else: lockstep's own work per case.
    pub own: u64,
}

impl AnyTimes {
    fn add(&mut self, other: &AnyTimes) {
        self.generator += other.generator;
        self.validator += other.validator;
        self.brute += other.brute;
        self.solution += other.solution;
        self.checker += other.checker;
        self.own += other.own;
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
    pub failed: Verdict,
    /// The shrunk input run once more (a flaky program may pass it: `Ok`).
    pub verdict: Verdict,
    /// The brute force's output on the shrunk input.
    pub expected: String,
    pub program: Execution,
    /// The generator made the original again when run once more on its
    /// seed (if not, a warning says so).
    pub replayable: bool,
}

#[derive(Debug, Clone)]
pub struct AnyOutcome {
    pub counts: Verdicts,
    pub elapsed: Duration,
    pub times: AnyTimes,
    /// The solution's peak memory over the cases.
    pub memory: MemoryFigures,
    pub failures: Vec<AnyFailure>,
    pub end: super::StressEnd,
}

/// A stress run's shared state: the options, the checker's directory, and
/// what the jobs add up as they go.
struct Stress<'a> {
    options: &'a AnyOptions,
    scratch: Option<Scratch>,
    times: Mutex<AnyTimes>,
    memory: Mutex<MemoryFigures>,
}

/// A failing input's brute-force answer, the solution's run on it and its
/// verdict: what a report shows.
type Rerun = (String, Execution, Verdict);

/// One case's inputs and outputs, as far as it got.
pub struct Case {
    /// The seed the user's generator made it from.
    seed: u64,
    input: String,
    expected: String,
    verdict: Verdict,
    /// The solution's run on it.
    run: Execution,
    /// Passed only when run again: its first run's timing verdict.
    flaky: Option<&'static str>,
}

impl Stress<'_> {
    /// The solution judged on `input` against `expected`.
    fn judge(
        &self,
        input: &str,
        expected: &str,
        run: &Execution,
        times: &mut AnyTimes,
    ) -> Result<Verdict, String> {
        match (&self.options.run.checker, &self.scratch) {
            (Some(checker), Some(scratch)) if matches!(run.ending, ProgramEnd::Exited(s) if s.success()) =>
            {
                let (verdict, took) = scratch.check(
                    checker,
                    input,
                    &run.stdout,
                    expected,
                    self.options.run.tool_resources(),
                );
                times.checker += took.as_nanos() as u64;
                verdict.map_err(|e| format!("the checker failed: {e}"))
            }
            _ => Ok(judge(expected, run, self.options.comparison)),
        }
    }

    /// The input of seed `seed`, validated, answered and judged; an error
    /// names the tool that failed.
    fn case(&self, seed: u64, input: String, times: &mut AnyTimes) -> Result<Case, String> {
        let o = self.options;
        let helper = o.run.tool_resources();
        let replay = format!("(`{}` makes it again)", o.run.generator_for(seed));
        if let Some(validator) = &o.run.validator {
            let (valid, took) = tool(validator, &input, helper);
            times.validator += took.as_nanos() as u64;
            valid.map_err(|e| {
                format!("the validator rejects the generator's input for seed {seed} {replay}: {e}")
            })?;
        }
        let (brute, took) = tool(&o.brute, &input, helper);
        times.brute += took.as_nanos() as u64;
        let expected = brute
            .map_err(|e| format!("the brute force failed on seed {seed} {replay}: {e}"))?
            .stdout;
        if let Some(dir) = &o.run.dump {
            let _ = std::fs::write(dir.join(format!("{seed}.ans")), &expected);
        }
        let program = run_program(&o.run.solution, &input, o.run.resources);
        times.solution += program.elapsed.as_nanos() as u64;
        let verdict = self
            .judge(&input, &expected, &program, times)
            .map_err(|e| format!("on seed {seed} {replay}, {e}"))?;
        self.memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .add(program.memory);
        Ok(Case {
            seed,
            input,
            expected,
            verdict,
            flaky: crate::flaky_code(&program),
            run: program,
        })
    }

    /// What the shrinker is told of a candidate input, and of a failing
    /// one the brute force's answer, the solution's run and its verdict.
    /// With more than one job the validator, the brute force and the
    /// solution run at once: the wait is the slowest of them instead of
    /// their sum, and a solution run on an input found invalid is thrown
    /// away.
    fn verdict_on(&self, input: &str, kind: &str) -> (Trial, Option<Rerun>) {
        let o = self.options;
        let helper = o.run.tool_resources();
        let validate = || {
            o.run
                .validator
                .as_ref()
                .is_none_or(|v| tool(v, input, helper).0.is_ok())
        };
        let brute = || tool(&o.brute, input, helper).0;
        let solve = || run_program(&o.run.solution, input, o.run.resources);
        let (valid, brute, run) = if o.run.plan.jobs > 1 {
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
            return (Trial::Invalid, None);
        };
        let run = run.unwrap_or_else(solve);
        match self.judge(input, &brute.stdout, &run, &mut AnyTimes::default()) {
            Ok(verdict) if verdict.code() == kind => {
                (Trial::Fails, Some((brute.stdout, run, verdict)))
            }
            Ok(_) => (Trial::Passes, None),
            // A checker that gives up on an input calls it invalid.
            Err(_) => (Trial::Invalid, None),
        }
    }
}

impl Check<Printed> for Stress<'_> {
    type Found = Case;
    type Tally = Verdicts;

    fn check(
        &self,
        cases: Vec<(Address, Printed)>,
        counts: &mut Verdicts,
        out: &mut Vec<Checked<Case>>,
    ) {
        for (_, Printed { seed, text: input }) in cases {
            let before = Instant::now();
            let mut spent = AnyTimes::default();
            let result = self.case(seed, input, &mut spent);
            let programs = spent.validator + spent.brute + spent.solution + spent.checker;
            spent.own = (before.elapsed().as_nanos() as u64).saturating_sub(programs);
            self.times
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .add(&spent);
            out.push(match result {
                Err(message) => Checked::Problem(message),
                Ok(case) => {
                    counts.add_one(&case.verdict);
                    match (&case.verdict, case.flaky) {
                        (Verdict::Ok, None) => Checked::Pass,
                        (Verdict::Ok, Some(code)) => {
                            counts.flaky += 1;
                            Checked::Flaky(code)
                        }
                        _ => Checked::Fail(case),
                    }
                }
            });
        }
    }

    type Kind = Failed;

    fn kind(&self, found: &Case) -> Failed {
        found.verdict.failure()
    }

    fn progress(&self, c: &lockstep_search::Counts, secs: f64) -> String {
        super::progress_line("stress", c, secs)
    }
}

/// Runs a stress campaign on the user's programs; an error only when the
/// checker's directory cannot be made.
pub fn stress_any(options: &AnyOptions) -> std::io::Result<AnyOutcome> {
    let stress = Stress {
        options,
        scratch: match options.run.checker {
            Some(_) => Some(Scratch::new()?),
            None => None,
        },
        times: Mutex::new(AnyTimes::default()),
        memory: Mutex::new(MemoryFigures::default()),
    };
    let generator = options.run.source("input");
    let mut outcome = lockstep_search::search(&options.run.plan, &generator, &stress);
    let mut warnings: Vec<String> = generator.sample.warning().into_iter().collect();
    let firsts = outcome.to_shrink(|f| f.found.verdict.failure());
    let failures = firsts
        .into_iter()
        .map(|failure| {
            let seed = failure.found.seed;
            // Before shrinking: the report will say `GEN SEED` makes it.
            let rerun = generator.rerun_warning(seed, &failure.found.input);
            let replayable = rerun.is_none();
            warnings.extend(rerun);
            AnyFailure {
                replayable,
                ..stress.shrink(seed, failure.found)
            }
        })
        .collect();
    let mut times = stress.times.into_inner().unwrap_or_else(|e| e.into_inner());
    times.generator = generator.time.into_inner();
    Ok(AnyOutcome {
        counts: outcome.tally,
        elapsed: outcome.elapsed,
        times,
        memory: stress
            .memory
            .into_inner()
            .unwrap_or_else(|e| e.into_inner()),
        failures,
        end: super::StressEnd::of(&mut outcome, warnings),
    })
}

impl Stress<'_> {
    /// Shrinks a failing case while the solution fails on it the same way,
    /// showing how far it got when the options ask for progress. The input
    /// is kept ([`GeneratorOptions::keep`]) as found and at every step; once a
    /// signal stops lockstep, the report shows the last failing
    /// candidate's run as it was (no program runs then).
    fn shrink(&self, seed: u64, case: Case) -> AnyFailure {
        let kind = case.verdict.code();
        self.options.run.keep(kind, &case.input);
        let mut last = (case.expected.clone(), case.run, case.verdict.clone());
        let (shrunk, shrink_time) = super::shrink_text(
            &self.options.run.plan,
            &format!("{kind} of seed {seed}"),
            &case.input,
            |candidate| {
                let (trial, rerun) = self.verdict_on(candidate, kind);
                if let (Some(rerun), false) = (rerun, lockstep_stop::interrupted()) {
                    self.options.run.keep(kind, candidate);
                    last = rerun;
                }
                trial
            },
        );
        let (expected, program, verdict) = match lockstep_stop::interrupted() {
            true => last,
            false => self.rerun(&shrunk.text, &case.expected, &case.verdict),
        };
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

    /// The shrunk input once more, for the report: the brute force's answer
    /// (or `expected`, the original's, when it fails now), the solution's
    /// run and its verdict (or `failed` when the checker fails now).
    fn rerun(&self, input: &str, expected: &str, failed: &Verdict) -> Rerun {
        let helper = self.options.run.tool_resources();
        let expected = tool(&self.options.brute, input, helper)
            .0
            .map_or_else(|_| expected.to_string(), |run| run.stdout);
        let program = run_program(
            &self.options.run.solution,
            input,
            self.options.run.resources,
        );
        let verdict = self
            .judge(input, &expected, &program, &mut AnyTimes::default())
            .unwrap_or_else(|_| failed.clone());
        (expected, program, verdict)
    }
}
