//! Checker's Check's planted bugs: a third validator (`third.rs`) with one bug
//! planted at a time, and [`BUGS`].

mod third;

use lockstep_harness::puzzle::{Run, Solver};
use lockstep_harness::puzzles::Checkers;
pub use third::{capture_only_for_mover, jumps_on_after_crowning, king_jumps_twice, stops_early};
pub use third::{king_crowned_on_far_row, several_steps, step_after_crowning, step_after_jump};
pub use third::{validate, Bug};

/// The planted bugs of this puzzle (see `crates/harness/tests/it/planted.rs` for the
/// catalogue).
pub const BUGS: [(&str, Solver<Checkers>); 8] = [
    ("a multi-jump may stop early", stops_early),
    (
        "a jump may continue after crowning",
        jumps_on_after_crowning,
    ),
    (
        "mandatory capture only for the moving piece",
        capture_only_for_mover,
    ),
    ("a king may jump a piece twice", king_jumps_twice),
    // The rule boundaries of issue 30, each a bug a published solution had.
    ("a simple step after a jump", step_after_jump),
    ("a step after a crowning", step_after_crowning),
    ("several simple steps in one move", several_steps),
    ("a king's jump ends on the far row", king_crowned_on_far_row),
];

/// Contestant-style rule bugs of long moves and kings, written before the
/// levels that find them (the crate's "Contestant bugs").
pub const CONTESTANT: [(&str, Solver<Checkers>); 3] = [
    ("the start square stays occupied during a jump", |case| {
        validate(case, Some(Bug::StartStaysOccupied))
    }),
    ("a king's backward jump does not oblige", |case| {
        validate(case, Some(Bug::DutyIgnoresKingsBackward))
    }),
    ("a man jumps on backward", |case| {
        validate(case, Some(Bug::ManJumpsOnBackward))
    }),
];

/// The planted bugs at the rule boundaries of issue 30 (with the early stop
/// of a multi-jump), for `crates/registry/tests/boundaries.rs`'s first-hundred-cases
/// check.
pub const BOUNDARY_BUGS: [(&str, Solver<Checkers>); 5] =
    [BUGS[4], BUGS[5], BUGS[6], BUGS[0], BUGS[7]];

/// This puzzle's planted bugs for the catalogue (`crates/harness/tests/it/planted.rs`).
pub fn bugs() -> Vec<(&'static str, Solver<Checkers>)> {
    BUGS.iter().copied().collect()
}

/// A checkers core with two bugs: multi-jumps may stop early, and the duty
/// to capture binds only the moving piece; what a campaign with
/// `--keep-going` must report as two bugs, each with its own signature.
pub fn two_bugs(case: &lockstep_core::checkers::Case) -> Run<lockstep_core::checkers::Answer> {
    use lockstep_core::Model;
    let early = stops_early(case);
    if early.answer != case.solve().answer {
        early
    } else {
        capture_only_for_mover(case)
    }
}
