//! The body of every cargo-fuzz target, and the case limits it reads from the
//! environment.
//!
//! libFuzzer owns a target's command line, so the limits its generator works
//! under come from `LOCKSTEP_LIMITS` instead; `lockstep triage` and `lockstep
//! shrink` read artifacts under the same variable, so that an artifact decodes
//! to the case that failed. Every puzzle's target is the one file
//! `fuzz/fuzz_targets/puzzle.rs`, built once per `[[bin]]` entry of
//! `fuzz/Cargo.toml`: the entry's name is the puzzle's module, which
//! [`fuzz_module`] dispatches on, so a new puzzle is one entry there.

use crate::puzzle::{self, CaseLimits};
use lockstep_core::Model;
use lockstep_text as text;

/// The `init` of every cargo-fuzz target: checks `LOCKSTEP_LIMITS` once,
/// before libFuzzer runs a single input, so that a typo ends the run cleanly
/// (exit 2, the value named) instead of being saved as a crash artifact.
pub fn fuzz_init() {
    if let Err(message) = CaseLimits::from_env() {
        setting_error(&message.to_string());
    }
}

fn setting_error(message: &str) -> ! {
    eprintln!("lockstep: {message}");
    #[allow(
        clippy::disallowed_methods,
        reason = "libFuzzer owns the process: a bad setting ends it before the first input"
    )]
    std::process::exit(2)
}

/// The body of every cargo-fuzz target: build a case from libFuzzer's bytes, check
/// it, and panic with the full report on a disagreement (libFuzzer then saves the
/// bytes as an artifact, which `lockstep triage` turns into a corpus row).
///
/// The generator's limits come from the environment, `LOCKSTEP_LIMITS=original`
/// or `wide` (the default), since libFuzzer owns the command line. Triage reads
/// artifacts with the same variable.
pub fn fuzz_one<P: puzzle::Puzzle>(data: &[u8]) {
    fuzz_one_with::<P>(data, P::Case::solve)
}

/// The body of `fuzz/fuzz_targets/puzzle.rs`: [`fuzz_one`] for the puzzle whose
/// module is `module` (the target's own name, `CARGO_BIN_NAME`), looked up at
/// the first input only.
pub fn fuzz_module(module: &str, data: &[u8]) {
    static BODY: std::sync::OnceLock<fn(&[u8])> = std::sync::OnceLock::new();
    BODY.get_or_init(|| fuzz_body(module))(data);
}

/// [`fuzz_one`] of the puzzle whose module is `module`. A name that is no
/// puzzle's module ends the run (exit 2, the modules named): the target's
/// `init` calls this, so a misnamed target stops before libFuzzer runs.
pub fn fuzz_body(module: &str) -> fn(&[u8]) {
    macro_rules! pick {
        ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {
            match module {
                $(stringify!($m) => fuzz_one::<crate::puzzles::$ty> as fn(&[u8]),)*
                _ => setting_error(&format!(
                    "no puzzle's module is {module:?} (a fuzz target is named as its puzzle's module: {})",
                    [$(stringify!($m)),*].join(" ")
                )),
            }
        };
    }
    crate::for_each_puzzle!(pick)
}

/// [`fuzz_one`] against `core` (a deliberately broken one in the tests).
pub fn fuzz_one_with<P: puzzle::Puzzle>(data: &[u8], core: puzzle::Solver<P>) {
    let limits =
        CaseLimits::from_env().unwrap_or_else(|message| setting_error(&message.to_string()));
    let Ok((case, generated)) = P::generate(&mut arbitrary::Unstructured::new(data), limits) else {
        return;
    };
    let attempts = puzzle::Attempts {
        core: puzzle::run_core::<P>(&case, core),
        reference: puzzle::reference_attempt::<P>(&case, generated),
    };
    if let puzzle::Agreement::Diverge { core, reference } = attempts.into_agreement() {
        panic!(
            "{}: core and reference disagree on {}\n{}",
            P::NAME,
            P::describe(&case),
            text::disagreement_body(
                &case.write_input(),
                &core.show(P::Case::write_answer),
                &reference.show(P::Case::write_answer),
                &puzzle::explain_safely::<P>(&case).report
            )
        );
    }
}
