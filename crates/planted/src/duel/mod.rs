//! Cherry Blossom Duel's planted bugs: a third resolver (`third.rs`) with one
//! bug planted at a time, and [`BUGS`], each with how small its failure must
//! shrink.

mod third;

use lockstep_harness::puzzle::Solver;
use lockstep_harness::puzzles::Duel;
pub use third::{blessing_before_loss, skill_twice_in_two_directions, turns_before_blessing};
pub use third::{guard_blocks_break, swaps_allowed, thrust_cancels_charge, tie_still_hurts};
pub use third::{pushes_ignore_shared_cell, third, Bug};

/// Non-wait actions left after shrinking, at most.
pub const BUGS: [(&str, Solver<Duel>, usize); 4] = [
    ("guard blocks break", guard_blocks_break, 2),
    (
        "thrust cancels a charge's movement",
        thrust_cancels_charge,
        2,
    ),
    ("swaps allowed", swaps_allowed, 2),
    ("equal damage still hurts", tie_still_hurts, 2),
];

/// Contestant-style rule bugs where two of the rules' checks meet (the
/// turn limit, the blessing, the loss check, the same skill twice), written
/// before the CI levels that find them (the crate's "Contestant bugs").
pub const CONTESTANT: [(&str, Solver<Duel>); 3] = [
    (
        "the turn limit checked before the blessing",
        turns_before_blessing,
    ),
    (
        "the blessing counted before the loss check",
        blessing_before_loss,
    ),
    (
        "a skill twice in two directions is legal",
        skill_twice_in_two_directions,
    ),
];

/// This puzzle's planted bugs for the catalogue (`crates/harness/tests/it/planted.rs`).
pub fn bugs() -> Vec<(&'static str, Solver<Duel>)> {
    BUGS.iter()
        .map(|&(name, solver, _)| (name, solver))
        .collect()
}
