//! Stress: a user's program judged on generated cases, its failures shrunk.
//! Three flavours, by what says the right answer:
//! - `puzzle`: one of lockstep's puzzles, the core or the reference the
//!   oracle (`lockstep stress PUZZLE --cmd C`);
//! - [`any`]: any problem, the user's generator and brute force (`lockstep
//!   stress any --gen G --brute B --cmd C`);
//! - [`interactive`]: an interactive problem, the user's interactor
//!   (`lockstep stress any --interactor I --gen G --cmd C`).
//!
//! A bot of the duel is stressed through the referee instead
//! (`lockstep_arena::stress`). Each flavour is a check of one case run by the
//! search driver ([`lockstep_search`]) over its cases, judged by the judge
//! ([`crate`]). The two flavours whose cases are a user's generator's
//! share that source ([`generator`]) and the format-free shrink of a failing
//! input (`shrink_text`).

use crate::shrink::{ShrunkText, Size, Trial};
use generator::Generator;
use lockstep_process::Resources;
use lockstep_search::shrinking::Keep;
use lockstep_search::Plan;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub mod any;
pub mod generator;
pub mod interactive;

/// A run over a user's generator, as both flavours that have one take it
/// (`stress any`, with a brute force or with an interactor): the search,
/// the user's programs, and what each may use.
#[derive(Debug, Clone)]
pub struct GeneratorOptions {
    /// The search: the first seed (case n gets `seed + n`), time, cases,
    /// jobs, keep-going, shrink budget.
    pub plan: Plan,
    /// Prints an input; run with a seed as its last argument.
    pub generator: String,
    /// The solution under test.
    pub solution: String,
    /// A testlib checker, for problems with several right answers (and, of
    /// an interactive one, for the interactor's output).
    pub checker: Option<String>,
    /// Reads an input on stdin; exit 0 means valid.
    pub validator: Option<String>,
    /// What each run of the solution may use.
    pub resources: Resources,
    /// Each tool's time per run (generator, validator, brute force,
    /// checker; the interactor's once the solution has ended).
    pub tool_time: Duration,
    /// Write every generated input (`SEED.in`) here, with the brute force's
    /// answer (`SEED.ans`) when there is one.
    pub dump: Option<PathBuf>,
    /// Where a failing input is kept as soon as it is found and as it
    /// shrinks ([`Keep`]).
    pub keep: Option<Keep>,
}

impl GeneratorOptions {
    /// The tools' limits: their own time, and at least the default output
    /// limit, so that a low `--output-limit` aimed at the solution does not
    /// stop a generator or brute force that prints a large input or answer.
    pub(crate) fn tool_resources(&self) -> Resources {
        Resources::new(
            self.tool_time,
            self.resources
                .output
                .max(lockstep_process::DEFAULT_OUTPUT_LIMIT),
        )
    }

    /// Keeps `input` as the smallest failing input of kind `kind` so far.
    pub(crate) fn keep(&self, kind: &str, input: &str) {
        if let Some(keep) = &self.keep {
            keep.keep(kind, input);
        }
    }

    /// The generator's command for one seed.
    pub fn generator_for(&self, seed: u64) -> String {
        format!("{} {seed}", self.generator)
    }

    /// The generator as the source of the cases, each called `what`.
    pub(crate) fn source(&self, what: &'static str) -> Generator {
        let limits = self.tool_resources();
        Generator::new(&self.generator, &self.plan, limits, self.dump.clone(), what)
    }
}

/// The live progress line of a stress: `NAME: N cases, R cases/s, K not
/// OK, S s` (cases the oracle skipped not counted).
pub fn progress_line(name: &str, c: &lockstep_search::Counts, secs: f64) -> String {
    let cases = c.cases - c.skipped;
    format!(
        "{name}: {cases} cases, {:.1} cases/s, {} not OK, {secs:.0} s",
        cases as f64 / secs.max(1e-9),
        c.failed,
    )
}

/// Shrinks a failing input, format unknown ([`crate::shrink`]), while
/// `trial` says it fails the same way, within the plan's budget; with the
/// plan's progress, a line says how far it got. Returns the shrunk input
/// and the time it took.
pub(crate) fn shrink_text(
    plan: &Plan,
    what: &str,
    input: &str,
    trial: impl FnMut(&str) -> Trial + Send,
) -> (ShrunkText, Duration) {
    let start = Instant::now();
    let before = Size::of(input).tokens;
    let tokens = AtomicUsize::new(before);
    let attempts = AtomicUsize::new(0);
    let shrunk = lockstep_search::with_progress(
        plan.progress,
        || {
            crate::shrink::shrink(input, trial, plan.shrink, &mut |size, tried| {
                tokens.store(size.tokens, Ordering::Relaxed);
                attempts.store(tried, Ordering::Relaxed);
            })
        },
        |secs| {
            format!(
                "shrinking the {what}: {before} -> {} tokens, {} candidates, {secs:.0} s",
                tokens.load(Ordering::Relaxed),
                attempts.load(Ordering::Relaxed)
            )
        },
    );
    (shrunk, start.elapsed())
}

/// The lines a report of a shrunk input starts with: where it came from,
/// how far it shrank and what the shrink tried.
pub(crate) fn shrunk_header(
    (kind, seed): (&str, u64),
    origin: &str,
    noun: &str,
    shrunk: &ShrunkText,
    extra: &str,
    took: Duration,
) -> String {
    let how = match shrunk.stop {
        Some(stop) => stop.to_string(),
        None => format!("not shrunk: the failure depends on the {noun}'s exact whitespace"),
    };
    format!(
        "{kind} on seed {seed} ({origin})\n\
         shrunk from {before}\n\
         \x20         to {after}: {how}\n\
         ({attempts} candidates run, {kept} kept, {invalid} invalid{extra}; {secs:.1} s)\n",
        before = shrunk.before,
        after = shrunk.after,
        attempts = shrunk.attempts,
        kept = shrunk.steps,
        invalid = shrunk.invalid,
        secs = took.as_secs_f64(),
    )
}

/// How a stress of the user's generator ended, besides its counts and its
/// shrunk failures (`stress any` and interactive stress alike).
#[derive(Debug, Clone, Default)]
pub struct StressEnd {
    /// Every failing case: its kind and its address (`seed 5004`), by kind.
    pub failing: Vec<(crate::Failed, lockstep_search::Address)>,
    /// Every case that passed only when run again after a time limit (TLE,
    /// ILE at its first run).
    pub flaky: Vec<(&'static str, lockstep_search::Address)>,
    /// A tool's failure on a generated input (the interactor's included),
    /// which stopped the run.
    pub problem: Option<String>,
    /// What is wrong with the generator (generator.rs), in words: warnings
    /// that change no verdict and no exit code.
    pub warnings: Vec<String>,
}

impl StressEnd {
    /// From the search's failing cases and problem, and the warnings.
    fn of<F, T>(
        outcome: &mut lockstep_search::SearchOutcome<F, T, crate::Failed>,
        warnings: Vec<String>,
    ) -> StressEnd {
        StressEnd {
            failing: crate::by_kind(std::mem::take(&mut outcome.failing)),
            flaky: std::mem::take(&mut outcome.flaky),
            problem: outcome.problem.take().map(|(_, message)| message),
            warnings,
        }
    }
}
