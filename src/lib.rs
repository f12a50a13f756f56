//! lockstep: differential fuzzing of fast puzzle solvers against naive references.
//!
//! The harness library behind the `lockstep` binary and the cargo-fuzz targets:
//!
//! - [`puzzle`]: the `Puzzle` trait every puzzle adapter implements, and the check
//!   (core and reference on one case: agree, diverge, or timeout);
//! - [`puzzles`]: one adapter per puzzle (generator, shrinker, divergence report)
//!   and the registry the CLI uses;
//! - [`seeds`], [`campaign`]: reproducible case bytes and the in-process fuzzer;
//! - [`shrink`]: greedy reduction of a failing case;
//! - [`corpus`], [`replay`]: the CSV corpus (safe appends, fallback files) and
//!   its replay;
//! - [`triage`]: cargo-fuzz artifacts turned into corpus rows;
//! - [`quickcheck_cases`]: quickcheck over the same generators;
//! - [`bench`]: core against reference, side by side;
//! - [`stress`]: a user's program against the oracle, failures shrunk;
//! - [`text`]: judge-text comparison and bounded quotes;
//! - [`process`]: running untrusted programs (groups, orphans, limits, signals);
//! - [`progress`]: live progress lines for long runs;
//! - [`duel`]: the Duel referee and built-in bots (an interactive puzzle);
//! - [`cli`]: the command line.
//!
//! The solvers themselves live in `lockstep-core` (fast) and `lockstep-reference`
//! (naive); this crate only drives and compares them.

pub mod bench;
pub mod campaign;
pub mod cli;
pub mod corpus;
pub mod duel;
pub mod generate;
pub mod jobs;
pub mod process;
pub mod progress;
pub mod puzzle;
pub mod puzzles;
pub mod quickcheck_cases;
pub mod registry;
pub mod replay;
pub mod row_tests;
pub mod seeds;
pub mod shrink;
pub mod stress;
pub mod text;
pub mod triage;

/// `LOCKSTEP_LIMITS`, read once: `original`, `wide`, or unset or empty
/// (`wide`). Any other value is an error naming it, so that a typo does not
/// run a night's fuzzing, or decode its artifacts, under the wrong limits.
pub fn limits_from_env() -> Result<puzzle::CaseLimits, String> {
    static LIMITS: std::sync::OnceLock<Result<puzzle::CaseLimits, String>> =
        std::sync::OnceLock::new();
    LIMITS
        .get_or_init(|| limits_named(std::env::var("LOCKSTEP_LIMITS").ok().as_deref()))
        .clone()
}

/// The `init` of every cargo-fuzz target: checks `LOCKSTEP_LIMITS` once,
/// before libFuzzer runs a single input, so that a typo ends the run cleanly
/// (exit 2, the value named) instead of being saved as a crash artifact.
pub fn fuzz_init() {
    if let Err(message) = limits_from_env() {
        setting_error(&message);
    }
}

fn setting_error(message: &str) -> ! {
    eprintln!("lockstep: {message}");
    std::process::exit(2)
}

/// The limits a `LOCKSTEP_LIMITS` value names ([`limits_from_env`]).
pub fn limits_named(value: Option<&str>) -> Result<puzzle::CaseLimits, String> {
    match value {
        None | Some("" | "wide") => Ok(puzzle::CaseLimits::Wide),
        Some("original") => Ok(puzzle::CaseLimits::Original),
        Some(other) => Err(format!(
            "LOCKSTEP_LIMITS={other:?}: expected \"original\" or \"wide\" (or unset, for wide)"
        )),
    }
}

/// The body of every cargo-fuzz target: build a case from libFuzzer's bytes, check
/// it, and panic with the full report on a disagreement (libFuzzer then saves the
/// bytes as an artifact, which `lockstep triage` turns into a corpus row).
///
/// The generator's limits come from the environment, `LOCKSTEP_LIMITS=original`
/// or `wide` (the default), since libFuzzer owns the command line. Triage reads
/// artifacts with the same variable.
pub fn fuzz_one<P: puzzle::Puzzle>(data: &[u8]) {
    fuzz_one_with::<P>(data, P::core)
}

/// [`fuzz_one`] against `core` (a deliberately broken one in the tests).
pub fn fuzz_one_with<P: puzzle::Puzzle>(data: &[u8], core: puzzle::Solver<P>) {
    let limits = limits_from_env().unwrap_or_else(|message| setting_error(&message));
    let Ok((case, generated)) =
        P::generate_with_reference(&mut arbitrary::Unstructured::new(data), limits)
    else {
        return;
    };
    let attempts = puzzle::Attempts {
        core: puzzle::run_core::<P>(&case, core),
        reference: puzzle::reference_attempt::<P>(&case, generated),
    };
    if let puzzle::Verdict::Diverge { core, reference } = attempts.into_verdict() {
        panic!(
            "{}: core and reference disagree on {}\n{}",
            P::NAME,
            P::describe(&case),
            text::disagreement_body(
                &P::write_input(&case),
                &core.show(P::write_answer),
                &reference.show(P::write_answer),
                &puzzle::explain_safely::<P>(&case).report
            )
        );
    }
}
