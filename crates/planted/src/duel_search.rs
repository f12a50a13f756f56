//! Duel search's planted bug: a search blind to the opponent's dashes.

use lockstep_core::duel::search::plain_maximin;
use lockstep_core::duel::{legal_lists, State, DASH};
use lockstep_core::Model;
use lockstep_harness::puzzle::{Run, Solver};
use lockstep_harness::puzzles::DuelSearch;

/// The planted bugs of this puzzle (see `crates/harness/tests/it/planted.rs` for the
/// catalogue).
pub const BUGS: [(&str, Solver<DuelSearch>); 1] = [("blind to dashes", blind_to_dashes)];

/// This puzzle's planted bugs for the catalogue (`crates/harness/tests/it/planted.rs`).
pub fn bugs() -> Vec<(&'static str, Solver<DuelSearch>)> {
    BUGS.to_vec()
}

/// A search that never considers the opponent's dashes.
pub fn blind_to_dashes(state: &State) -> Run<[i32; 6]> {
    let mut answer = state.solve().answer;
    let blind = [0, 1].map(|p| {
        let (mut rows, mut cols) = (Vec::new(), Vec::new());
        legal_lists(state, p, &mut rows);
        legal_lists(state, 1 - p, &mut cols);
        cols.retain(|c| c[0].code != DASH && c[1].code != DASH);
        plain_maximin(state, p, &rows, &cols)
    });
    answer[..2].copy_from_slice(&blind);
    Run { answer, digest: 0 }
}
