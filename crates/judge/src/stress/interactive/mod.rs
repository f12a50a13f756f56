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
//! records the transcript ([`transcript`](crate::interactive::transcript)), bounds the solution's output,
//! detects a deadlock, and reaps both programs' process groups on every
//! path, a signal's included ([`lockstep_process`]).
//!
//! A failing test is shrunk by the format-free shrinker
//! ([`crate::shrink`]): a candidate is kept when it is valid (the
//! `--validator` accepts it or, without one, the interactor neither fails
//! with exit 3 nor crashes on it) and the solution fails it with the same
//! kind of verdict (WA stays WA, TLE stays TLE). The report gives the shrunk
//! test and the transcript of the solution on it.

use super::generator::Printed;
use super::GeneratorOptions;
use crate::checker::Scratch;
use crate::shrink::{ShrunkText, Trial};
use crate::{tool, Failed, Verdicts};
use lockstep_search::{Address, Check, Checked};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

mod summary;

use crate::interactive::relay::{self, Interaction, RelayResources};
use crate::interactive::transcript::Transcript;
use crate::interactive::verdict;
use crate::Verdict;

/// The options of an interactive stress run.
#[derive(Debug, Clone)]
pub struct InteractiveOptions {
    /// The search, the generator (its input is the test), the solution,
    /// the checker of the interactor's output, the validator, the
    /// resources of each run.
    pub run: GeneratorOptions,
    /// `INTERACTOR TEST OUTPUT`, talking to the solution.
    pub interactor: String,
}

impl InteractiveOptions {
    fn relay_resources(&self) -> RelayResources {
        RelayResources {
            solution_time: self.run.resources.time,
            solution_wall: self.run.resources.wall,
            solution_output: self.run.resources.output,
            interactor_time: self.run.tool_time,
            interactor_output: self.run.tool_resources().output,
        }
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
    pub failed: Verdict,
    /// The shrunk test run once more (`Ok` from a flaky solution).
    pub verdict: Verdict,
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
pub struct InteractiveOutcome {
    pub counts: Verdicts,
    pub elapsed: Duration,
    /// Lines relayed over all cases, both ways.
    pub lines: u64,
    pub failures: Vec<InteractiveFailure>,
    pub end: super::StressEnd,
}

/// One run of a test through the interactor.
pub struct Judged {
    verdict: Verdict,
    interaction: Interaction,
    /// Passed when run again: the first run's timing verdict (TLE, ILE).
    flaky: Option<&'static str>,
}

/// A stress run's shared state.
struct Stress<'a> {
    options: &'a InteractiveOptions,
    scratch: Arc<Scratch>,
    /// Lines relayed, both ways, over every case.
    lines: AtomicU64,
}

impl Stress<'_> {
    /// The solution on `test`, through the interactor (and the checker);
    /// an error is a tool's failure, in words.
    fn interact(&self, test: &str, transcript: Transcript) -> Result<Judged, String> {
        let o = self.options;
        let [input, output] = self.scratch.fresh(["in", "out"]);
        std::fs::write(&input, test)
            .map_err(|e| format!("could not write {}: {e}", input.display()))?;
        let cmd = format!(
            "{} {} {}",
            o.interactor,
            lockstep_process::quoted(&input),
            lockstep_process::quoted(&output)
        );
        let result = relay::interact(&cmd, &o.run.solution, o.relay_resources(), transcript);
        let written = std::fs::read_to_string(&output).unwrap_or_default();
        let _ = std::fs::remove_file(&input);
        let _ = std::fs::remove_file(&output);
        let interaction = result.map_err(|e| format!("could not start: {e}"))?;
        let mut verdict = verdict::judge(&interaction, o.relay_resources().interactor_output)?;
        if let (Verdict::Ok, Some(checker)) = (&verdict, &o.run.checker) {
            let (checked, _) =
                self.scratch
                    .check(checker, test, &written, test, o.run.tool_resources());
            verdict = match checked.map_err(|e| format!("the checker failed: {e}"))? {
                Verdict::Ok => Verdict::Ok,
                Verdict::WrongAnswer(diff) => Verdict::WrongAnswer(diff),
                _ => Verdict::WrongAnswer("the checker rejects it".to_string()),
            };
        }
        Ok(Judged {
            verdict,
            interaction,
            flaky: None,
        })
    }

    /// [`Stress::interact`], a timing verdict confirmed by a second
    /// interaction ([`crate::run_program`]'s rule): when the second
    /// passes, it is the one kept, marked flaky.
    fn interact_confirmed(&self, test: &str) -> Result<Judged, String> {
        let first = self.interact(test, Transcript::default())?;
        let timing = matches!(first.verdict, Verdict::TimeLimit(_) | Verdict::IdleLimit);
        if !timing || !self.options.run.resources.confirm_timing || lockstep_stop::interrupted() {
            return Ok(first);
        }
        let again = self.interact(test, Transcript::default())?;
        match again.verdict {
            Verdict::TimeLimit(_) | Verdict::IdleLimit => Ok(first),
            _ if lockstep_stop::interrupted() => Ok(first),
            _ => Ok(Judged {
                flaky: Some(first.verdict.code()),
                ..again
            }),
        }
    }

    /// The test of seed `seed`, validated and run; or a tool's failure
    /// naming the seed.
    fn case(&self, seed: u64, test: &str) -> Result<Judged, String> {
        let o = self.options;
        let replay = format!("(`{}` makes the test again)", o.run.generator_for(seed));
        if let Some(validator) = &o.run.validator {
            tool(validator, test, o.run.tool_resources())
                .0
                .map_err(|e| {
                    format!(
                        "the validator rejects the generator's test for seed {seed} {replay}: {e}"
                    )
                })?;
        }
        self.interact_confirmed(test)
            .map_err(|e| format!("on seed {seed} {replay}, {e}"))
    }

    /// What the shrinker is told of a candidate test, and of a failing
    /// one its interaction.
    fn trial(&self, test: &str, kind: &str) -> (Trial, Option<Judged>) {
        let o = self.options;
        if let Some(validator) = &o.run.validator {
            if tool(validator, test, o.run.tool_resources()).0.is_err() {
                return (Trial::Invalid, None);
            }
        }
        match self.interact_confirmed(test) {
            Ok(outcome) if outcome.verdict.code() == kind => (Trial::Fails, Some(outcome)),
            Ok(_) => (Trial::Passes, None),
            // The interactor rejects the test (FAIL), or crashes on it.
            Err(_) => (Trial::Invalid, None),
        }
    }
}

impl Check<Printed> for Stress<'_> {
    type Found = (Printed, Judged);
    type Tally = Verdicts;

    fn check(
        &self,
        cases: Vec<(Address, Printed)>,
        counts: &mut Verdicts,
        out: &mut Vec<Checked<Self::Found>>,
    ) {
        for (_, test) in cases {
            out.push(match self.case(test.seed, &test.text) {
                Err(message) => Checked::Problem(message),
                Ok(outcome) => {
                    self.lines.fetch_add(
                        outcome.interaction.transcript.lines as u64,
                        Ordering::Relaxed,
                    );
                    counts.add_one(&outcome.verdict);
                    match (&outcome.verdict, outcome.flaky) {
                        (Verdict::Ok, None) => Checked::Pass,
                        (Verdict::Ok, Some(code)) => {
                            counts.flaky += 1;
                            Checked::Flaky(code)
                        }
                        _ => Checked::Fail((test, outcome)),
                    }
                }
            });
        }
    }

    type Kind = Failed;

    fn kind(&self, found: &Self::Found) -> Failed {
        found.1.verdict.failure()
    }

    fn progress(&self, c: &lockstep_search::Counts, secs: f64) -> String {
        super::progress_line("stress", c, secs)
    }
}

/// Runs an interactive stress campaign; an error only when lockstep's
/// scratch directory cannot be made.
pub fn stress_interactive(options: &InteractiveOptions) -> std::io::Result<InteractiveOutcome> {
    let stress = Stress {
        options,
        scratch: Arc::new(Scratch::new()?),
        lines: AtomicU64::new(0),
    };
    let generator = options.run.source("test");
    let mut outcome = lockstep_search::search(&options.run.plan, &generator, &stress);
    let mut warnings = Vec::new();
    let firsts = outcome.to_shrink(|f| f.found.1.verdict.failure());
    let failures = firsts
        .into_iter()
        .map(|failure| {
            let (test, found) = failure.found;
            warnings.extend(generator.rerun_warning(test.seed, &test.text));
            stress.shrink(test.seed, test.text, found)
        })
        .collect();
    Ok(InteractiveOutcome {
        counts: outcome.tally,
        elapsed: outcome.elapsed,
        lines: stress.lines.into_inner(),
        failures,
        end: super::StressEnd::of(&mut outcome, warnings),
    })
}

impl Stress<'_> {
    /// Shrinks a failing test while the solution fails it the same way, then
    /// runs the shrunk test once more with its whole transcript kept. The
    /// test is kept ([`super::GeneratorOptions::keep`]) as found and at every step;
    /// once a signal stops lockstep, the report shows the last failing
    /// candidate's interaction as it was (no program runs then, and no
    /// whole transcript is written).
    fn shrink(&self, seed: u64, test: String, outcome: Judged) -> InteractiveFailure {
        let kind = outcome.verdict.code();
        self.options.run.keep(kind, &test);
        let mut last: Option<Judged> = None;
        let (shrunk, shrink_time) = super::shrink_text(
            &self.options.run.plan,
            &format!("{kind} of seed {seed}"),
            &test,
            |candidate| {
                let (trial, judged) = self.trial(candidate, kind);
                if let (Some(judged), false) = (judged, lockstep_stop::interrupted()) {
                    self.options.run.keep(kind, candidate);
                    last = Some(judged);
                }
                trial
            },
        );
        let [whole] = self.scratch.fresh(["transcript"]);
        let stopping = lockstep_stop::interrupted();
        let again = match stopping {
            true => None,
            false => {
                let transcript = std::fs::File::create(&whole)
                    .map(Transcript::streamed_to)
                    .unwrap_or_default();
                self.interact(&shrunk.text, transcript).ok()
            }
        };
        let (verdict, interaction, whole) = match (again, last) {
            (Some(again), _) => (again.verdict, Some(again.interaction), Some(whole)),
            (None, Some(last)) if stopping => (last.verdict, Some(last.interaction), None),
            // Stopped before any step: the original's interaction.
            (None, None) if stopping => (
                outcome.verdict.clone(),
                Some(outcome.interaction.clone()),
                None,
            ),
            (None, _) => (outcome.verdict.clone(), None, None),
        };
        InteractiveFailure {
            seed,
            original: test,
            original_lines: outcome.interaction.transcript.lines,
            shrunk,
            shrink_time,
            failed: outcome.verdict,
            verdict,
            whole_transcript: whole,
            interaction,
            _scratch: Arc::clone(&self.scratch),
        }
    }
}
