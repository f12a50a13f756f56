//! The `Puzzle` trait that every puzzle adapter implements, and the check that runs
//! the core and the reference on one case.
//!
//! A puzzle's case type brings its judge I/O and fast solver (core's `Model`)
//! and its naive reference (the reference's `Naive`); an adapter (in
//! `puzzles/`) adds what only the harness needs: a generator, a shrinker and a
//! divergence report. Everything else (the fuzzer, the shrinking loop, the corpus, quickcheck,
//! cargo-fuzz targets, benchmarks, the CLI) is written once, against this trait.

use arbitrary::Unstructured;
use lockstep_core::Model;
use lockstep_reference::{Fuel, Naive, OutOfFuel};
use std::cell::Cell;
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

/// What a solver reports: its answer and a digest of its step trace (0 for
/// puzzles, or outcomes, without a comparable trace). One type for the core
/// and the reference, defined with the model in `lockstep-core`.
pub use lockstep_core::Run;

mod driver_traits;
pub use driver_traits::{Counting, Joinable, Traceable, Verifiable};

/// What the reference gives on a case within its fuel.
pub type ReferenceRun<A> = Result<Run<A>, OutOfFuel>;

/// A generated case, and the reference's result on it when the generator
/// computed it ([`Puzzle::generate`]).
pub type CaseWithReference<P> = (
    <P as Puzzle>::Case,
    Option<ReferenceRun<<P as Puzzle>::Answer>>,
);

/// What [`Puzzle::generate`] returns: a case, with the reference's result
/// on it when the generator computed it, or the generator's error.
pub type Generated<P> = arbitrary::Result<CaseWithReference<P>>;

/// The first index at which two traces differ; the shorter one's length
/// when it is the start of the other (the longer one goes on past it).
pub fn first_unequal<T: PartialEq>(core: &[T], reference: &[T]) -> usize {
    core.iter()
        .zip(reference)
        .position(|(c, r)| c != r)
        .unwrap_or(core.len().min(reference.len()))
}

/// A report on how the core and the reference part ways on one case.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// A short kebab-case name of the symptom, used to name corpus rows.
    pub symptom: String,
    /// Human-readable: the first differing step and both states.
    pub report: String,
}

/// Which cases a generator makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CaseLimits {
    /// Only cases inside the original statement's constraints (the rule page of
    /// each puzzle lists them): what a judge's tests hold, so what a user's
    /// solution must handle.
    Original,
    /// Every case the generator (fuzz) or the levels (verify) make, also
    /// outside those constraints where the rules still give an answer
    /// (checkers moves naming squares outside 1..=32, for instance).
    Wide,
}

impl CaseLimits {
    /// Whether a case is one a run under these limits may report: any case
    /// for `Wide`, only one inside the statement's constraints for
    /// `Original` (a smaller case the statement does not allow is no use to
    /// the user). Shrinking in the campaign and in stress keeps to it.
    pub fn admits<P: Puzzle>(self, case: &P::Case) -> bool {
        self == CaseLimits::Wide || P::within_original(case)
    }
}

impl CaseLimits {
    /// `LOCKSTEP_LIMITS`, read once: `original`, `wide`, or unset or empty
    /// (`wide`). Any other value is an error naming it, so that a typo does not
    /// run a night's fuzzing, or decode its artifacts, under the wrong limits.
    /// The cargo-fuzz targets read their limits here, since libFuzzer owns
    /// their command line; triage and shrink decode artifacts the same way.
    pub fn from_env() -> Result<CaseLimits, crate::HarnessError> {
        static LIMITS: std::sync::OnceLock<Result<CaseLimits, crate::HarnessError>> =
            std::sync::OnceLock::new();
        LIMITS
            .get_or_init(|| {
                CaseLimits::from_setting(std::env::var("LOCKSTEP_LIMITS").ok().as_deref())
            })
            .clone()
    }

    /// The limits a `LOCKSTEP_LIMITS` value names ([`CaseLimits::from_env`]).
    pub fn from_setting(value: Option<&str>) -> Result<CaseLimits, crate::HarnessError> {
        match value {
            None | Some("" | "wide") => Ok(CaseLimits::Wide),
            Some("original") => Ok(CaseLimits::Original),
            Some(other) => Err(crate::HarnessError::Setting(format!(
                "LOCKSTEP_LIMITS={other:?}: expected \"original\" or \"wide\" (or unset, for wide)"
            ))),
        }
    }
}

impl std::fmt::Display for CaseLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CaseLimits::Original => "original",
            CaseLimits::Wide => "wide",
        })
    }
}

/// A puzzle's names, written once in its entry of the list of puzzles
/// ([`for_each_puzzle!`](crate::for_each_puzzle)), which implements this
/// for every puzzle.
pub trait Listed {
    /// The name on the command line and in reports, e.g. `new-game2`.
    const NAME: &'static str;
    /// The module name in every crate, the cargo-fuzz target and the corpus file
    /// stem, e.g. `new_game2`.
    const MODULE: &'static str;
}

/// One puzzle as the harness sees it: what every driver needs of it, and
/// nothing one driver alone reads. Such a need is that driver's own small
/// trait ([`Traceable`], [`Joinable`], [`crate::shrink::Sideways`],
/// [`Counting`], [`Verifiable`]), which a
/// puzzle implements when its list entry has the trait's flag; every other
/// puzzle gets the trait's defaults from the list
/// ([`for_each_puzzle!`](crate::for_each_puzzle)), so the compiler refuses
/// both a flag without an implementation and an implementation without
/// its flag.
pub trait Puzzle: Listed + Sized + 'static {
    /// The reference's budget per case in campaigns; running out is a timeout.
    const FUEL: u64;

    /// The case type. Core's [`Model`] on it gives the judge-format I/O and
    /// the fast solver, the reference's [`Naive`] the oracle, so that an
    /// adapter writes neither.
    type Case: Model<Answer = Self::Answer>
        + Naive
        + Clone
        + Debug
        + PartialEq
        + std::hash::Hash
        + Send
        + Sync
        + 'static;
    type Answer: Clone + Debug + PartialEq + std::hash::Hash + Send + 'static;

    /// The one generator: a valid case from bytes, within `limits`, leaning
    /// toward the interesting corners; with the reference's result on it
    /// when the generator already ran the reference over all of it, as one
    /// that plays a game forward through the reference's incremental solve
    /// does (checkers, duel). The campaign and the cargo-fuzz targets then
    /// use that result instead of running the reference a second time; when
    /// present it must be exactly `reference(case, Fuel::new(FUEL))` (the
    /// tests hold every generator to that, and the campaign re-runs the
    /// reference on a sample). A generator whose cases all lie inside the
    /// original limits may ignore `limits`.
    fn generate(u: &mut Unstructured<'_>, limits: CaseLimits) -> Generated<Self>;

    /// Whether a case lies inside the original statement's constraints, checked
    /// apart from the generator (the tests hold `generate(_, Original)` to
    /// it). Written from the rule page's list of limits; every case, for a
    /// puzzle whose statement sets none the generator can step past.
    fn within_original(_case: &Self::Case) -> bool {
        true
    }
    /// A few words on the size of a case, e.g. `5x5 board, 4 pieces`.
    fn describe(case: &Self::Case) -> String;

    /// Where and how the core and the reference part ways on a case they disagree
    /// on, from their full traces.
    fn explain(case: &Self::Case) -> Explanation;
    /// Simpler variants of a case, most promising first; every one must be valid.
    fn shrink_candidates(case: &Self::Case) -> Vec<Self::Case>;

    /// Names of the rule branches that [`Puzzle::rule_branches`] reports, for
    /// `--stats`: evidence that a run reaches the rare ones.
    const RULE_BRANCHES: &'static [&'static str];

    /// The rule branches the core went through on a case, bit `i` for
    /// `RULE_BRANCHES[i]`.
    fn rule_branches(case: &Self::Case) -> u64;

    /// What a disagreement is, for its bug signature ([`crate::signature`]),
    /// when both sides answered (a panic is signed by its message, once, for
    /// every puzzle): the first answer line that differs on each side
    /// ([`Answers::lines`]), refined from where the two part.
    fn signature(answers: Answers<'_, Self>) -> String;

    /// Every case up to a size, level by level, for `lockstep verify`
    /// (the puzzle's `levels.rs`; the rule page says what a size is).
    const LEVELS: crate::enumerate::Levels<Self::Case>;
}

/// The two answers of a disagreement, as [`Puzzle::signature`] reads them.
pub struct Answers<'a, P: Puzzle> {
    pub case: &'a P::Case,
    pub core: &'a P::Answer,
    pub reference: &'a P::Answer,
    /// The first answer line that differs on each side, folded
    /// ([`crate::signature::first_line_difference`]).
    pub lines: String,
    /// The core under test, as a black box that a puzzle may ask about
    /// other cases (perft's divide does).
    pub solver: Solver<P>,
}

/// A solver under test: the puzzle's core, or a deliberately broken one in tests.
pub type Solver<P> = fn(&<P as Puzzle>::Case) -> Run<<P as Puzzle>::Answer>;

/// One side's result on a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Attempt<A> {
    Ran(Run<A>),
    Panicked(String),
    /// The reference ran out of fuel (shown only beside a core that panicked:
    /// otherwise running out of fuel is a timeout, not a divergence).
    OutOfFuel,
}

impl<A: Debug> Attempt<A> {
    /// The answer for a person to read in a report: judge lines joined by ` | `,
    /// cut after [`DISPLAY_CHARS`] characters with the full size given. For
    /// display only: a corpus row is built from the typed answer
    /// ([`crate::corpus::divergence_row`]), never from this.
    pub fn show(&self, write_answer: impl Fn(&A) -> String) -> String {
        match self {
            Attempt::Ran(run) => display_text(&write_answer(&run.answer)),
            Attempt::Panicked(message) => {
                format!("panic: {}", lockstep_text::clip(message, DISPLAY_CHARS))
            }
            Attempt::OutOfFuel => "(ran out of fuel)".to_string(),
        }
    }

    /// The answer, when this side ran to one.
    pub fn answer(&self) -> Option<&A> {
        match self {
            Attempt::Ran(run) => Some(&run.answer),
            _ => None,
        }
    }
}

/// How much of an answer [`Attempt::show`] prints.
pub const DISPLAY_CHARS: usize = 300;

/// Judge text on one line for a report ([`Attempt::show`]).
pub fn display_text(text: &str) -> String {
    let joined = text.trim_end().replace('\n', " | ");
    if joined.chars().count() <= DISPLAY_CHARS {
        return joined;
    }
    format!(
        "{} ({} lines, {} bytes in all)",
        lockstep_text::clip(&joined, DISPLAY_CHARS),
        lockstep_text::judge_lines(text).len(),
        text.len()
    )
}

/// The outcome of running both solvers on one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Agreement<A> {
    Agree,
    /// The reference ran out of fuel: the case is skipped.
    Timeout,
    /// Different answers, different trace digests, or a panic on either side.
    Diverge {
        core: Attempt<A>,
        reference: Attempt<A>,
    },
}

impl<A> Agreement<A> {
    pub fn is_divergence(&self) -> bool {
        matches!(self, Agreement::Diverge { .. })
    }
}

thread_local! {
    /// Set while the harness runs a solver under `catch_unwind`: the panic is
    /// reported as a result, so the panic hook stays quiet.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, turning a panic into its message. Panics caught here are not printed
/// by the panic hook (the harness reports them); any other panic still is, through
/// whatever hook was installed before (libFuzzer's, in a cargo-fuzz target).
pub(crate) fn run_caught<A>(f: impl FnOnce() -> A) -> Result<A, String> {
    static QUIET_HOOK: Once = Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CATCHING.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let was_catching = CATCHING.with(|c| c.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(was_catching));
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_string())
    })
}

/// Both solvers' results on one case.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempts<A> {
    pub core: Attempt<A>,
    /// `None` when the reference ran out of fuel.
    pub reference: Option<Attempt<A>>,
}

impl<A: PartialEq> Attempts<A> {
    pub fn into_agreement(self) -> Agreement<A> {
        match (self.core, self.reference) {
            // A core that panics is a finding even when the reference cannot
            // finish the case.
            (core @ Attempt::Panicked(_), None) => Agreement::Diverge {
                core,
                reference: Attempt::OutOfFuel,
            },
            (_, None) => Agreement::Timeout,
            (Attempt::Ran(c), Some(Attempt::Ran(r))) if c == r => Agreement::Agree,
            (core, Some(reference)) => Agreement::Diverge { core, reference },
        }
    }
}

/// Runs `core` (the real core, or a deliberately broken one in tests) and the
/// reference with `fuel` on a case, catching panics on either side.
pub fn run_both<P: Puzzle>(
    case: &P::Case,
    core: impl FnOnce(&P::Case) -> Run<P::Answer>,
    fuel: u64,
) -> Attempts<P::Answer> {
    let core = run_core::<P>(case, core);
    let reference = run_reference::<P>(case, fuel);
    Attempts { core, reference }
}

/// `core` alone on a case, its panic caught.
pub fn run_core<P: Puzzle>(
    case: &P::Case,
    core: impl FnOnce(&P::Case) -> Run<P::Answer>,
) -> Attempt<P::Answer> {
    match run_caught(|| core(case)) {
        Ok(run) => Attempt::Ran(run),
        Err(message) => Attempt::Panicked(message),
    }
}

/// The reference alone on a case with `fuel`, its panic caught; `None` when it
/// runs out of fuel.
pub fn run_reference<P: Puzzle>(case: &P::Case, fuel: u64) -> Option<Attempt<P::Answer>> {
    match run_caught(|| case.solve_naively(&mut Fuel::new(fuel))) {
        Ok(Ok(run)) => Some(Attempt::Ran(run)),
        Ok(Err(OutOfFuel)) => None,
        Err(message) => Some(Attempt::Panicked(message)),
    }
}

/// The reference's result on a case as an [`Attempt`]: the one the generator
/// computed if there is one ([`Puzzle::generate`]), else a run of
/// the reference with its campaign fuel, its panic caught. `None` when it ran
/// out of fuel.
pub fn reference_attempt<P: Puzzle>(
    case: &P::Case,
    generated: Option<ReferenceRun<P::Answer>>,
) -> Option<Attempt<P::Answer>> {
    match generated {
        Some(Ok(run)) => Some(Attempt::Ran(run)),
        Some(Err(OutOfFuel)) => None,
        None => run_reference::<P>(case, P::FUEL),
    }
}

/// Compares answers and trace digests of `core` and the reference on a case.
pub fn check_with<P: Puzzle>(
    case: &P::Case,
    core: impl FnOnce(&P::Case) -> Run<P::Answer>,
    fuel: u64,
) -> Agreement<P::Answer> {
    run_both::<P>(case, core, fuel).into_agreement()
}

/// [`check_with`] the puzzle's own core and fuel.
pub fn check<P: Puzzle>(case: &P::Case) -> Agreement<P::Answer> {
    check_with::<P>(case, P::Case::solve, P::FUEL)
}

/// Whether divergence reports draw whole pictures (robots: the whole boards)
/// instead of the region where the two sides differ: `lockstep shrink --full`.
static FULL_REPORTS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// See `FULL_REPORTS`.
pub fn full_reports() -> bool {
    FULL_REPORTS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Makes divergence reports draw whole pictures from now on.
pub fn set_full_reports(full: bool) {
    FULL_REPORTS.store(full, std::sync::atomic::Ordering::Relaxed);
}

/// [`Puzzle::explain`], with a panic in either solver's tracing turned into the
/// report instead of taking the harness down.
pub fn explain_safely<P: Puzzle>(case: &P::Case) -> Explanation {
    run_caught(|| P::explain(case)).unwrap_or_else(|message| Explanation {
        symptom: "panic".to_string(),
        report: format!("tracing the case panicked: {message}"),
    })
}
