//! `lockstep stress any --interactor I --gen G --cmd C` (also spelt
//! `lockstep stress --interactor I --gen G --cmd C`): stress for any
//! interactive problem, the failing test shrunk and its interaction shown.
//!
//! The generator makes a test, the interactor's hidden input, from a seed as
//! in [`crate::stress::any`]. The interactor runs as testlib runs one,
//! `INTERACTOR TEST OUTPUT` (the test file, a file it may write for a
//! checker), with the solution on the other end of its stdin and stdout;
//! its exit code is the verdict ([`verdict`]). An optional checker then
//! reads the interactor's output as Polygon's does: `CHECKER TEST OUTPUT
//! TEST` (the test stands for the answer file, which an interactive problem
//! seldom has apart from it).
//!
//! The two programs are connected through lockstep ([`relay`]), which
//! records the transcript ([`transcript`]), bounds the solution's output,
//! detects a deadlock, and reaps both programs' process groups on every
//! path, a signal's included ([`crate::process`]).
//!
//! A failing test is shrunk by the format-free shrinker
//! ([`crate::shrink::text`]): a candidate is kept when it is valid (the
//! `--validator` accepts it or, without one, the interactor neither fails
//! with exit 3 nor crashes on it) and the solution fails it with the same
//! kind of verdict (WA stays WA, TLE stays TLE). The report gives the shrunk
//! test and the transcript of the solution on it.

use super::{Counts, SharedCounts, KINDS};
use crate::process::Limits;
use crate::shrink::text::{self, ShrunkText, Size, Trial};
use crate::shrink::Budget;
use crate::stress::any::{tool, Scratch};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub mod relay;
mod report;
pub mod transcript;
pub mod verdict;

use relay::{Interaction, RelayLimits};
use transcript::Transcript;
pub use verdict::InteractionVerdict;

/// The options of an interactive stress run.
#[derive(Debug, Clone)]
pub struct InteractiveOptions {
    /// Prints a test; run with a seed as its last argument.
    pub generator: String,
    /// `INTERACTOR TEST OUTPUT`, talking to the solution.
    pub interactor: String,
    /// The solution under test.
    pub solution: String,
    /// `CHECKER TEST OUTPUT TEST`, run on the interactor's output.
    pub checker: Option<String>,
    /// Reads a test on stdin; exit 0 means valid.
    pub validator: Option<String>,
    pub max_cases: Option<u64>,
    pub seconds: f64,
    /// The solution's time (wall clock, from its start) and output.
    pub limits: Limits,
    /// The generator's, validator's and checker's time per run, and the
    /// interactor's once the solution has ended.
    pub helper_time: Duration,
    pub seed: u64,
    pub jobs: usize,
    pub progress: bool,
    pub keep_going: bool,
    pub shrink: Budget,
    /// Write every generated test (`SEED.in`) here.
    pub dump: Option<PathBuf>,
}

impl InteractiveOptions {
    fn helper_limits(&self) -> Limits {
        Limits::new(
            self.helper_time,
            self.limits.output.max(crate::process::DEFAULT_OUTPUT_LIMIT),
        )
    }

    fn relay_limits(&self) -> RelayLimits {
        RelayLimits {
            solution_time: self.limits.time,
            solution_output: self.limits.output,
            interactor_time: self.helper_time,
            interactor_output: self.helper_limits().output,
        }
    }

    /// The generator's command for one seed.
    pub fn generator_for(&self, seed: u64) -> String {
        format!("{} {seed}", self.generator)
    }
}

/// A failure of one kind (the first one), shrunk.
#[derive(Debug, Clone)]
pub struct InteractiveFailure {
    pub seed: u64,
    pub original: String,
    /// Lines in the original failing interaction.
    pub original_lines: usize,
    pub shrunk: ShrunkText,
    pub shrink_time: Duration,
    /// How the original failed: the kind it was shrunk for.
    pub failed: InteractionVerdict,
    /// The shrunk test run once more (`Ok` from a flaky solution).
    pub verdict: InteractionVerdict,
    /// That run: its transcript (bounded) and the programs' stderr.
    pub interaction: Option<Interaction>,
    /// That run's whole transcript, in lockstep's scratch directory
    /// (removed at exit: the command line copies it where `--save` says).
    pub whole_transcript: Option<PathBuf>,
    /// The scratch directory, kept while the failure is: it holds the file.
    _scratch: Arc<Scratch>,
}

/// What an interactive stress run found.
#[derive(Debug, Clone)]
pub struct InteractiveReport {
    pub counts: Counts,
    pub elapsed: Duration,
    /// Lines relayed over all cases, both ways.
    pub lines: u64,
    pub failures: Vec<InteractiveFailure>,
    /// Every failing case: its kind and its seed, sorted.
    pub failing: Vec<(&'static str, u64)>,
    /// A tool's failure (the interactor's included) that stopped the run.
    pub problem: Option<String>,
    pub warnings: Vec<String>,
}

/// One run of a test through the interactor.
struct Outcome {
    verdict: InteractionVerdict,
    interaction: Interaction,
}

/// A stress run's shared state.
struct Stress<'a> {
    options: &'a InteractiveOptions,
    scratch: Arc<Scratch>,
}

impl Stress<'_> {
    /// The solution on `test`, through the interactor (and the checker);
    /// an error is a tool's failure, in words.
    fn interact(&self, test: &str, transcript: Transcript) -> Result<Outcome, String> {
        let o = self.options;
        let [input, output] = self.scratch.fresh(["in", "out"]);
        std::fs::write(&input, test)
            .map_err(|e| format!("could not write {}: {e}", input.display()))?;
        let cmd = format!(
            "{} {} {}",
            o.interactor,
            crate::process::quoted(&input),
            crate::process::quoted(&output)
        );
        let result = relay::interact(&cmd, &o.solution, o.relay_limits(), transcript);
        let written = std::fs::read_to_string(&output).unwrap_or_default();
        let _ = std::fs::remove_file(&input);
        let _ = std::fs::remove_file(&output);
        let interaction = result.map_err(|e| format!("could not start: {e}"))?;
        let mut verdict = verdict::judge(&interaction, o.relay_limits().interactor_output)?;
        if let (InteractionVerdict::Ok, Some(checker)) = (&verdict, &o.checker) {
            let (checked, _) = self
                .scratch
                .check(checker, test, &written, test, o.helper_limits());
            verdict = match checked.map_err(|e| format!("the checker failed: {e}"))? {
                crate::stress::Judgement::Ok => InteractionVerdict::Ok,
                other => InteractionVerdict::WrongAnswer(match other {
                    crate::stress::Judgement::WrongAnswer { diff } => diff,
                    _ => "the checker rejects it".to_string(),
                }),
            };
        }
        Ok(Outcome {
            verdict,
            interaction,
        })
    }

    /// Case `seed`: its test and outcome, or a tool's failure naming the seed.
    fn case(&self, seed: u64) -> Result<(String, Outcome), String> {
        let o = self.options;
        let generator = o.generator_for(seed);
        let test = tool(&generator, "", o.helper_limits())
            .0
            .map_err(|e| format!("the generator failed on seed {seed} (`{generator}`): {e}"))?
            .stdout;
        if let Some(dir) = &o.dump {
            let _ = std::fs::write(dir.join(format!("{seed}.in")), &test);
        }
        let replay = format!("(`{generator}` makes the test again)");
        if let Some(validator) = &o.validator {
            tool(validator, &test, o.helper_limits()).0.map_err(|e| {
                format!("the validator rejects the generator's test for seed {seed} {replay}: {e}")
            })?;
        }
        let outcome = self
            .interact(&test, Transcript::default())
            .map_err(|e| format!("on seed {seed} {replay}, {e}"))?;
        Ok((test, outcome))
    }

    /// What the shrinker is told of a candidate test.
    fn trial(&self, test: &str, kind: &str) -> Trial {
        let o = self.options;
        if let Some(validator) = &o.validator {
            if tool(validator, test, o.helper_limits()).0.is_err() {
                return Trial::Invalid;
            }
        }
        match self.interact(test, Transcript::default()) {
            Ok(outcome) if outcome.verdict.code() == kind => Trial::Fails,
            Ok(_) => Trial::Passes,
            // The interactor rejects the test (FAIL), or crashes on it.
            Err(_) => Trial::Invalid,
        }
    }
}

/// Runs an interactive stress campaign; an error only when lockstep's
/// scratch directory cannot be made.
pub fn stress_interactive(options: &InteractiveOptions) -> std::io::Result<InteractiveReport> {
    let stress = Stress {
        options,
        scratch: Arc::new(Scratch::new()?),
    };
    let start = Instant::now();
    let deadline = crate::seeds::deadline_after(start, options.seconds);
    let next = AtomicU64::new(0);
    let shared = SharedCounts::default();
    let lines = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let firsts: Mutex<Vec<(u64, String, Outcome)>> = Mutex::new(Vec::new());
    let failing: Mutex<Vec<(&'static str, u64)>> = Mutex::new(Vec::new());
    let problem: Mutex<Option<(u64, String)>> = Mutex::new(None);

    let job_loop = |_job: u64| loop {
        if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let n = next.fetch_add(1, Ordering::Relaxed);
        if options.max_cases.is_some_and(|cap| n >= cap) {
            break;
        }
        let seed = options.seed.wrapping_add(n);
        let result = stress.case(seed);
        // A signal is stopping lockstep and killed the programs.
        if crate::process::interrupted() {
            break;
        }
        let (test, outcome) = match result {
            Ok(case) => case,
            Err(message) => {
                let mut problem = problem.lock().unwrap_or_else(|e| e.into_inner());
                if problem.as_ref().is_none_or(|(s, _)| seed < *s) {
                    *problem = Some((seed, message));
                }
                stop.store(true, Ordering::Relaxed);
                break;
            }
        };
        lines.fetch_add(
            outcome.interaction.transcript.lines as u64,
            Ordering::Relaxed,
        );
        shared.add(&mut Counts::one(&outcome.verdict.judgement()));
        if outcome.verdict == InteractionVerdict::Ok {
            continue;
        }
        let kind = outcome.verdict.code();
        failing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((kind, seed));
        let mut firsts = firsts.lock().unwrap_or_else(|e| e.into_inner());
        // Per kind, the lowest seed: the same failure whatever the jobs.
        match firsts.iter_mut().find(|f| f.2.verdict.code() == kind) {
            Some(first) if seed < first.0 => *first = (seed, test, outcome),
            Some(_) => {}
            None => firsts.push((seed, test, outcome)),
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
    firsts.sort_by_key(|f| KINDS.iter().position(|&k| k == f.2.verdict.code()));
    if !options.keep_going {
        firsts.sort_by_key(|f| f.0);
        firsts.truncate(1);
        // The lower seed of a failure and a tool's problem is what one job
        // would have met first.
        match (&problem, firsts.first()) {
            (Some((at, _)), Some(first)) if first.0 < *at => problem = None,
            (Some(_), Some(_)) => firsts.clear(),
            _ => {}
        }
    }
    let mut warnings = Vec::new();
    let failures = if problem.is_some() || crate::process::interrupted() {
        Vec::new()
    } else {
        firsts
            .into_iter()
            .map(|(seed, test, outcome)| {
                let generator = options.generator_for(seed);
                match tool(&generator, "", options.helper_limits()).0 {
                    Ok(run) if run.stdout == test => {}
                    _ => warnings.push(format!(
                        "the generator did not make the same test when run again on seed {seed}: `{generator}` may not make the failing test again"
                    )),
                }
                stress.shrink(seed, test, outcome)
            })
            .collect()
    };
    let mut failing = failing.into_inner().unwrap_or_else(|e| e.into_inner());
    failing.sort_by_key(|&(kind, seed)| (KINDS.iter().position(|&k| k == kind), seed));
    Ok(InteractiveReport {
        counts: shared.get(),
        elapsed,
        lines: lines.into_inner(),
        failures,
        failing,
        problem: problem.map(|(_, message)| message),
        warnings,
    })
}

impl Stress<'_> {
    /// Shrinks a failing test while the solution fails it the same way, then
    /// runs the shrunk test once more with its whole transcript kept.
    fn shrink(&self, seed: u64, test: String, outcome: Outcome) -> InteractiveFailure {
        let kind = outcome.verdict.code();
        let start = Instant::now();
        let tokens = AtomicUsize::new(Size::of(&test).tokens);
        let attempts = AtomicUsize::new(0);
        let shrunk = std::thread::scope(|scope| {
            let work = scope.spawn(|| {
                text::shrink(
                    &test,
                    |candidate| self.trial(candidate, kind),
                    self.options.shrink,
                    &mut |size, tried| {
                        tokens.store(size.tokens, Ordering::Relaxed);
                        attempts.store(tried, Ordering::Relaxed);
                    },
                )
            });
            if self.options.progress {
                let before = Size::of(&test).tokens;
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
        let [whole] = self.scratch.fresh(["transcript"]);
        let transcript = std::fs::File::create(&whole)
            .map(Transcript::streamed_to)
            .unwrap_or_default();
        let (verdict, interaction) = match self.interact(&shrunk.text, transcript) {
            Ok(again) => (again.verdict, Some(again.interaction)),
            Err(_) => (outcome.verdict.clone(), None),
        };
        InteractiveFailure {
            seed,
            original: test,
            original_lines: outcome.interaction.transcript.lines,
            shrunk,
            shrink_time,
            failed: outcome.verdict,
            verdict,
            whole_transcript: interaction.as_ref().map(|_| whole),
            interaction,
            _scratch: Arc::clone(&self.scratch),
        }
    }
}
