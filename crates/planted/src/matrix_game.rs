//! The matrix game's planted bugs: equilibrium solvers stopped short or
//! mapped back wrongly, and a pure maximin.

use lockstep_core::matrix_game::{
    answer_of, equilibrium, equilibrium_with, puzzle_options, Game, Strategies, Values,
};
use lockstep_harness::puzzle::{Run, Solver};
use lockstep_harness::puzzles::MatrixGame;

/// The double oracle stopped after its first restricted game: the value of
/// row 0 against column 0.
pub fn stops_after_one_round(g: &Game) -> Run<Values> {
    let mut options = puzzle_options(g);
    options.max_rounds = 1;
    Run {
        answer: answer_of(g, &equilibrium_with(g, &options)),
        digest: 0,
    }
}

/// The row strategy mapped back one row off (the restricted game's row i
/// given to row i + 1).
pub fn rows_off_by_one(g: &Game) -> Run<Values> {
    let mut s = equilibrium(g);
    s.rows.rotate_right(1);
    Run {
        answer: answer_of(g, &s),
        digest: 0,
    }
}

/// A pure maximin and minimax in place of the equilibrium: right on games
/// with a saddle point only.
pub fn pure_maximin(g: &Game) -> Run<Values> {
    let worst = |r: usize| (0..g.columns).map(|c| g.entry(r, c)).min().unwrap();
    let best = |c: usize| (0..g.rows).map(|r| g.entry(r, c)).max().unwrap();
    let r = (0..g.rows).max_by_key(|&r| worst(r)).unwrap();
    let c = (0..g.columns).min_by_key(|&c| best(c)).unwrap();
    let mut s = Strategies {
        value: f64::from(worst(r)),
        rows: vec![0.0; g.rows],
        columns: vec![0.0; g.columns],
    };
    s.rows[r] = 1.0;
    s.columns[c] = 1.0;
    Run {
        answer: answer_of(g, &s),
        digest: 0,
    }
}

/// The planted bugs of this puzzle (see `crates/harness/tests/it/planted.rs` for the
/// catalogue).
pub const BUGS: [(&str, Solver<MatrixGame>); 3] = [
    ("stops after one round", stops_after_one_round),
    ("row strategy one row off", rows_off_by_one),
    ("pure maximin", pure_maximin),
];

/// This puzzle's planted bugs for the catalogue (`crates/harness/tests/it/planted.rs`).
pub fn bugs() -> Vec<(&'static str, Solver<MatrixGame>)> {
    BUGS.to_vec()
}
