//! Duel-search's bench line: both searches of the full-skill opening, core's
//! pruned ones against the reference's exhaustive ones.

use crate::bench::{side_by_side, BenchOptions};
use crate::puzzle::Puzzle;
use crate::puzzles::DuelSearch;
use lockstep_core::duel::{self as model, State};
use lockstep_core::Model;
use lockstep_reference::Fuel;
use lockstep_reference::Naive;

/// What the bench runs of this puzzle beyond its generated cases.
pub const EXTRAS: crate::bench::Extras = crate::bench::Extras {
    lines: extras,
    reset_caches: crate::bench::no_caches,
};

/// All four searches (plain and race, both players) on one full-skill
/// opening (about 945 x 945 lists), which the generator keeps away from
/// campaigns: core's pruned searches against the reference's exhaustive
/// ones, timed as the bench times cases ([`side_by_side`]), at most 3
/// rounds (the reference's side takes most of a second).
pub fn extras(options: &BenchOptions) -> Vec<String> {
    use std::hint::black_box;
    let state = State::initial((4, 4), (4, 3), (4, 5));
    let core_values = |state: &State| state.solve().answer;
    let naive_values = |state: &State| {
        state
            .solve_naively(&mut Fuel::unlimited())
            .map(|run| run.answer)
            .unwrap_or_default()
    };
    let (values, naive) = (core_values(&state), naive_values(&state));
    let measured = side_by_side(
        options.rounds.clamp(1, 3),
        1.0,
        || {},
        || {
            black_box(core_values(black_box(&state)));
        },
        || {
            black_box(naive_values(black_box(&state)));
        },
    );
    vec![format!(
        "full-skill opening {} (answers: core {}, reference {}): core {:.2} ms, reference {:.0} ms; {:.0}x",
        model::write_state(&state),
        <DuelSearch as Puzzle>::Case::write_answer(&values).trim_end(),
        <DuelSearch as Puzzle>::Case::write_answer(&naive).trim_end(),
        1e3 / measured.core_rate,
        1e3 / measured.reference_rate,
        measured.ratio
    )]
}
