//! The double oracle: an equilibrium of a large matrix game from a few of its
//! rows and columns.
//!
//! A duel turn is a game of up to 945 x 945 lists, and each entry costs a turn
//! resolution: the whole matrix (about 900,000 resolutions) does not fit a
//! turn's few milliseconds. The double oracle (McMahan, Gordon and Blum, 2003)
//! solves a restricted game on a set of rows and a set of columns exactly
//! ([`solve_game`]), then asks each side's best reply over the *whole* game to
//! the other's restricted strategy. The best replies bound the value:
//!
//! ```text
//! lower = min over all columns c of  x . A[., c]   (what x guarantees)
//! upper = max over all rows r    of  A[r, .] . y   (what y concedes at most)
//! ```
//!
//! When `upper - lower` is within the tolerance, `(x, y)` is an equilibrium of
//! the whole game to that tolerance; otherwise the best replies join the sets
//! and the next round solves a larger restricted game. It ends in at most as
//! many rounds as there are rows and columns, and in practice after a few dozen.
//!
//! **Caching.** A row joins the restricted set with its payoffs against every
//! column, a column with its payoffs against every row ([`Payoffs`] computes
//! them once). Both best replies then cost no payoff at all: the row player's
//! best reply to `y` sums the cached columns of `y`'s support, the column
//! player's sums the cached rows of `x`'s. A round costs one vector per new
//! row or column.
//!
//! **Barred rows.** [`Options::floor`] bars every row with a payoff below it
//! (for the duel, an immediate loss): a best reply whose vector holds one does
//! not join and is never proposed again. The caller starts from a row known to be clean, so
//! the restricted game always has one. The bounds are then those of the game
//! without the barred rows (the ones not examined yet still count in
//! `upper`, which only makes it larger).

use super::simplex::{solve_game, Solved};
use std::time::Instant;

/// A matrix game given by its rows and columns, computed on demand.
pub trait Payoffs {
    fn rows(&self) -> usize;
    fn columns(&self) -> usize;
    /// Row `r`'s payoffs against every column, into `out` (`columns()` long).
    fn row(&mut self, r: usize, out: &mut Vec<i32>);
    /// Every row's payoff against column `c`, into `out` (`rows()` long).
    fn column(&mut self, c: usize, out: &mut Vec<i32>);
    /// One entry.
    fn entry(&mut self, r: usize, c: usize) -> i32;
}

/// How the double oracle runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The restricted sets it starts from (at least one of each; an empty one
    /// starts from index 0).
    pub start_rows: Vec<usize>,
    pub start_columns: Vec<usize>,
    /// It stops when `upper - lower` is at most this (the payoffs' units).
    pub tolerance: f64,
    /// At most this many restricted games are solved.
    pub max_rounds: usize,
    /// No round starts after this.
    pub deadline: Option<Instant>,
    /// A row with a payoff below this is barred (see the module's doc).
    pub floor: Option<i32>,
}

/// A mixed strategy pair and what it is worth.
#[derive(Debug, Clone, PartialEq)]
pub struct Equilibrium {
    /// The row player's strategy: (row, weight) pairs, weights summing to 1.
    pub rows: Vec<(usize, f64)>,
    /// The column player's strategy, likewise.
    pub columns: Vec<(usize, f64)>,
    /// The last restricted game's value.
    pub value: f64,
    /// What `rows` guarantees over every column, and what `columns` concedes
    /// at most over every row not barred (see the module's doc).
    pub lower: f64,
    pub upper: f64,
    /// Restricted games solved.
    pub rounds: usize,
    /// Rows barred by [`Options::floor`].
    pub barred: usize,
    /// Payoff vectors computed (rows and columns).
    pub vectors: usize,
    /// Whether it stopped within the tolerance (not by the round cap, the
    /// deadline, or a round that could add nothing).
    pub converged: bool,
}

/// The double oracle's working sets.
struct Sets {
    rows: Vec<usize>,
    row_payoffs: Vec<Vec<i32>>,
    columns: Vec<usize>,
    column_payoffs: Vec<Vec<i32>>,
    barred: Vec<bool>,
    /// Columns that gave a barred row a payoff under the floor: tried first on the
    /// next candidate, which they usually bar in one entry.
    barring: Vec<usize>,
    vectors: usize,
}

impl Sets {
    fn add_column(&mut self, game: &mut impl Payoffs, c: usize) {
        let mut out = Vec::new();
        game.column(c, &mut out);
        self.vectors += 1;
        self.columns.push(c);
        self.column_payoffs.push(out);
    }

    /// Row `r`'s payoffs, or `None` (and `r` barred) when one is under `floor`.
    fn clean_row(
        &mut self,
        game: &mut impl Payoffs,
        r: usize,
        floor: Option<i32>,
    ) -> Option<Vec<i32>> {
        if let Some(f) = floor {
            if self.barring.iter().any(|&c| game.entry(r, c) < f) {
                self.barred[r] = true;
                return None;
            }
        }
        let mut out = Vec::new();
        game.row(r, &mut out);
        self.vectors += 1;
        match floor.and_then(|f| out.iter().position(|&v| v < f)) {
            Some(c) => {
                self.barred[r] = true;
                self.barring.push(c);
                None
            }
            None => Some(out),
        }
    }
}

impl Sets {
    /// The column player's best reply to the row player's mixed strategy
    /// `solved.rows`, over every column: its payoff and column.
    fn column_reply(&self, solved: &Solved, n: usize) -> (f64, usize) {
        let mut lower = (f64::INFINITY, 0);
        for c in 0..n {
            let payoff: f64 = (solved.rows.iter().zip(&self.row_payoffs))
                .filter(|(&w, _)| w > 0.0)
                .map(|(&w, row)| w * f64::from(row[c]))
                .sum();
            if payoff < lower.0 {
                lower = (payoff, c);
            }
        }
        lower
    }

    /// The row player's best replies to `solved.columns`, best first, over
    /// every row not barred; the first clean one is the best reply (those
    /// above it are barred on the way).
    fn row_replies(&self, solved: &Solved, m: usize) -> Vec<(f64, usize)> {
        let mut candidates: Vec<(f64, usize)> = (0..m)
            .filter(|&r| !self.barred[r])
            .map(|r| {
                let payoff: f64 = (solved.columns.iter().zip(&self.column_payoffs))
                    .filter(|(&w, _)| w > 0.0)
                    .map(|(&w, column)| w * f64::from(column[r]))
                    .sum();
                (payoff, r)
            })
            .collect();
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
        candidates
    }
}

/// The strategies of a set with positive weight, each with its weight.
fn pairs(set: &[usize], weights: &[f64]) -> Vec<(usize, f64)> {
    set.iter()
        .zip(weights)
        .filter(|(_, &w)| w > 0.0)
        .map(|(&i, &w)| (i, w))
        .collect()
}

/// Rows a round may examine and bar with a whole vector before it gives up
/// looking for a clean best reply (a bar by a known barring column costs one
/// entry and is not counted).
const BARS_PER_ROUND: usize = 8;

/// The start rows or columns the options give, those inside the game once
/// each in their order; the first one when none is.
fn starting(list: &[usize], size: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for &i in list.iter().filter(|&&i| i < size) {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    if out.is_empty() {
        out.push(0);
    }
    out
}

/// An approximate equilibrium of `game` (see the module's doc).
pub fn double_oracle(game: &mut impl Payoffs, options: &Options) -> Equilibrium {
    let (m, n) = (game.rows(), game.columns());
    assert!(m > 0 && n > 0, "a game needs a row and a column");
    let mut sets = Sets {
        rows: Vec::new(),
        row_payoffs: Vec::new(),
        columns: Vec::new(),
        column_payoffs: Vec::new(),
        barred: vec![false; m],
        barring: Vec::new(),
        vectors: 0,
    };
    // The start rows are taken as given (the caller vouches for them).
    for r in starting(&options.start_rows, m) {
        let out = sets.clean_row(game, r, None).expect("no floor");
        sets.rows.push(r);
        sets.row_payoffs.push(out);
    }
    for c in starting(&options.start_columns, n) {
        sets.add_column(game, c);
    }
    let slack = options.tolerance / 2.0;
    let mut rounds = 0;
    loop {
        let solved = solve_game(sets.rows.len(), sets.columns.len(), |i, j| {
            f64::from(sets.row_payoffs[i][sets.columns[j]])
        });
        rounds += 1;
        let lower = sets.column_reply(&solved, n);
        let candidates = sets.row_replies(&solved, m);
        let out_of_time = options.deadline.is_some_and(|d| Instant::now() >= d);
        let searching = rounds < options.max_rounds && !out_of_time;
        let mut upper = candidates.first().map_or(f64::NEG_INFINITY, |c| c.0);
        let mut new_row = None;
        let mut bars = 0;
        for &(payoff, r) in &candidates {
            upper = payoff;
            let useful = payoff > solved.value + slack && !sets.rows.contains(&r);
            if !useful || !searching || upper - lower.0 <= options.tolerance {
                break;
            }
            if bars == BARS_PER_ROUND {
                break;
            }
            let before = sets.vectors;
            match sets.clean_row(game, r, options.floor) {
                Some(out) => {
                    new_row = Some((r, out));
                    break;
                }
                None => bars += sets.vectors - before,
            }
        }
        let converged = upper - lower.0 <= options.tolerance;
        let mut grew = false;
        if !converged && searching {
            // A best reply joins when it beats the restricted game's value by
            // more than half the tolerance (else it would change nothing); a
            // round that only barred rows changes the next round's best reply.
            if lower.0 < solved.value - slack && !sets.columns.contains(&lower.1) {
                sets.add_column(game, lower.1);
                grew = true;
            }
            if let Some((r, out)) = new_row {
                sets.rows.push(r);
                sets.row_payoffs.push(out);
                grew = true;
            }
            // Bars are made from the top of the list down.
            grew |= candidates.first().is_some_and(|c| sets.barred[c.1]);
        }
        if !grew {
            return Equilibrium {
                rows: pairs(&sets.rows, &solved.rows),
                columns: pairs(&sets.columns, &solved.columns),
                value: solved.value,
                lower: lower.0,
                upper,
                rounds,
                barred: sets.barred.iter().filter(|&&b| b).count(),
                vectors: sets.vectors,
                converged,
            };
        }
    }
}

/// A game held as a full matrix: the puzzle's case, and the tests'.
pub struct Dense<'a> {
    pub rows: usize,
    pub columns: usize,
    /// Row-major, `rows * columns` entries.
    pub entries: &'a [i32],
}

impl Payoffs for Dense<'_> {
    fn rows(&self) -> usize {
        self.rows
    }
    fn columns(&self) -> usize {
        self.columns
    }
    fn row(&mut self, r: usize, out: &mut Vec<i32>) {
        out.clear();
        out.extend_from_slice(&self.entries[r * self.columns..(r + 1) * self.columns]);
    }
    fn column(&mut self, c: usize, out: &mut Vec<i32>) {
        out.clear();
        out.extend((0..self.rows).map(|r| self.entries[r * self.columns + c]));
    }
    fn entry(&mut self, r: usize, c: usize) -> i32 {
        self.entries[r * self.columns + c]
    }
}

#[cfg(test)]
mod tests;
