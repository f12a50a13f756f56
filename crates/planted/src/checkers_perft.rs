//! Checkers perft's planted bugs: perfts over the reference's move list that
//! count wrongly, and [`BUGS`].

use lockstep_core::checkers_perft::Case;
use lockstep_harness::puzzle::{Run, Solver};
use lockstep_harness::puzzles::CheckersPerft;
use lockstep_reference::checkers::Grid;
use lockstep_reference::Fuel;

/// A perft that counts two jump paths ending in the same position once (a
/// classic perft bug: moves deduplicated by where they lead).
pub fn merges_paths_to_one_position(case: &Case) -> Run<u64> {
    fn count(grid: &Grid, side: lockstep_core::checkers::Side, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut seen: Vec<Grid> = Vec::new();
        let mut nodes = 0;
        for m in grid.legal_moves(side, &mut Fuel::unlimited()).unwrap() {
            if seen.contains(&m.after) {
                continue;
            }
            seen.push(m.after.clone());
            nodes += count(&m.after, side.opponent(), depth - 1);
        }
        nodes
    }
    let grid = Grid::from_pieces(&case.position.red, &case.position.white);
    Run {
        answer: count(&grid, case.position.to_move, case.depth),
        digest: 0,
    }
}

/// A perft that counts a position with no move as a leaf, at any depth.
pub fn counts_a_dead_end_as_a_leaf(case: &Case) -> Run<u64> {
    fn count(grid: &Grid, side: lockstep_core::checkers::Side, depth: u32) -> u64 {
        let moves = grid.legal_moves(side, &mut Fuel::unlimited()).unwrap();
        if depth == 0 || moves.is_empty() {
            return 1;
        }
        moves
            .iter()
            .map(|m| count(&m.after, side.opponent(), depth - 1))
            .sum()
    }
    let grid = Grid::from_pieces(&case.position.red, &case.position.white);
    Run {
        answer: count(&grid, case.position.to_move, case.depth),
        digest: 0,
    }
}

pub const BUGS: [(&str, Solver<CheckersPerft>); 2] = [
    (
        "merges jump paths to one position",
        merges_paths_to_one_position,
    ),
    ("counts a dead end as a leaf", counts_a_dead_end_as_a_leaf),
];

/// This puzzle's planted bugs for the catalogue (`crates/harness/tests/it/planted.rs`).
pub fn bugs() -> Vec<(&'static str, Solver<CheckersPerft>)> {
    BUGS.to_vec()
}
