//! The exact solver of a small matrix game: the linear program of the column
//! player, by a dense-tableau simplex.
//!
//! The double oracle ([`super::oracle`]) solves one restricted game per round,
//! each a few dozen rows and columns at most, so a dense tableau is the plain
//! choice: no sparsity to exploit. The entering column is the one with the
//! largest reduced cost (Dantzig's rule, few pivots), and after a run of
//! degenerate pivots the first improving one (Bland's rule, which cannot
//! cycle on the degenerate games small integer payoffs make).
//!
//! The game `M` (the row player maximises) is first mapped to `A = (M - min) /
//! span + 0.1`, every entry in [0.1, 1.1], so the value is positive and the
//! tableau's numbers stay near 1 whatever the payoffs' scale (the duel's run
//! from -10^6 to 10^6). Then, with `w = y / v`, the column player's program is
//!
//! ```text
//! maximise sum(w)  subject to  A w <= 1,  w >= 0,
//! ```
//!
//! whose slack basis is feasible from the start (no phase one). At the optimum
//! `sum(w) = 1 / v`, `y = w v`, and the row player's strategy is the dual
//! solution, read off the slacks' reduced costs: `x = u v`.
//!
//! The tolerances were chosen on 1,564 restricted games the mixed duel bot met
//! in 30 games: with pivots down to 1e-11 and entries in [1, 2], 38 of them
//! came out with strategies over 1e-3 from optimal (one pivot on a rounding
//! residue ruins a tableau); with pivots of at least 1e-9 on entries in
//! [0.1, 1.1] the worst was 1.1e-6, in a tenth of the time (the earlier
//! helper's figures; its notes file was never committed, and
//! `docs/notes/2026-12-02-duel-mixed.md` has what was re-measured).

/// Pivots beyond which the solver stops (never reached on the sizes the
/// double oracle makes; a guard against a numerical loop).
const MAX_PIVOTS: usize = 10_000;

/// The smallest entry of the scaled game: entries run from this to 1 + this.
const FLOOR: f64 = 0.1;

/// A pivot element must exceed this (the tableau's entries are near 1).
const PIVOT_TOL: f64 = 1e-9;

/// A reduced cost must exceed this for its column to enter.
const COST_TOL: f64 = 1e-11;

/// Degenerate pivots in a row (no gain) after which Bland's rule takes over.
const STALL: usize = 50;

/// A solved game: its value and an optimal strategy for each side.
#[derive(Debug, Clone, PartialEq)]
pub struct Solved {
    pub value: f64,
    /// The row player's mixed strategy, one weight per row, summing to 1.
    pub rows: Vec<f64>,
    /// The column player's, one weight per column.
    pub columns: Vec<f64>,
}

/// The ratio test: the row that leaves the basis when column `enter`
/// enters, over pivots large enough to divide by; among equal ratios, the
/// largest pivot, or with `bland` (degenerate pivots have gone on for a
/// while) the lowest basic variable, which cannot cycle.
fn leaving_row(
    t: &[f64],
    width: usize,
    basis: &[usize],
    enter: usize,
    bland: bool,
) -> Option<usize> {
    let rhs = width - 1;
    let mut leave: Option<(f64, usize)> = None;
    for (i, &basic) in basis.iter().enumerate() {
        let a = t[i * width + enter];
        if a <= PIVOT_TOL {
            continue;
        }
        let ratio = t[i * width + rhs].max(0.0) / a;
        let better = match leave {
            None => true,
            Some((r, k)) => {
                let tie = (ratio - r).abs() <= 1e-12 * (1.0 + r);
                ratio < r && !tie
                    || tie
                        && if bland {
                            basic < basis[k]
                        } else {
                            a > t[k * width + enter]
                        }
            }
        };
        if better {
            leave = Some((ratio, i));
        }
    }
    leave.map(|(_, row)| row)
}

/// Solves the `m x n` game whose entry (i, j) is `entry(i, j)`, the row
/// player's payoff. `m` and `n` must be at least 1.
pub fn solve_game(m: usize, n: usize, entry: impl Fn(usize, usize) -> f64) -> Solved {
    assert!(m > 0 && n > 0, "a game needs a row and a column");
    let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..m {
        for j in 0..n {
            let e = entry(i, j);
            min = min.min(e);
            max = max.max(e);
        }
    }
    let span = max - min;
    if span <= 0.0 {
        // Every entry the same: any strategies are optimal.
        let mut rows = vec![0.0; m];
        let mut columns = vec![0.0; n];
        rows[0] = 1.0;
        columns[0] = 1.0;
        return Solved {
            value: min,
            rows,
            columns,
        };
    }
    // Tableau: m rows of [A | I | 1], width n + m + 1; `cost` the reduced costs.
    let width = n + m + 1;
    let rhs = width - 1;
    let mut t = vec![0.0; m * width];
    for i in 0..m {
        for j in 0..n {
            t[i * width + j] = (entry(i, j) - min) / span + FLOOR;
        }
        t[i * width + n + i] = 1.0;
        t[i * width + rhs] = 1.0;
    }
    let mut cost: Vec<f64> = (0..rhs).map(|j| f64::from(u8::from(j < n))).collect();
    let mut objective = 0.0;
    let mut basis: Vec<usize> = (n..n + m).collect();
    let mut stalled = 0;
    for _ in 0..MAX_PIVOTS {
        // Dantzig's rule (the largest reduced cost), Bland's (the first) once
        // degenerate pivots have gone on for a while: it cannot cycle.
        let enter = if stalled < STALL {
            (0..rhs)
                .filter(|&j| cost[j] > COST_TOL)
                .max_by(|&a, &b| cost[a].total_cmp(&cost[b]))
        } else {
            (0..rhs).find(|&j| cost[j] > COST_TOL)
        };
        let Some(enter) = enter else { break };
        // The program is bounded (every entry of A is positive), so some
        // row limits the entering column unless rounding hid it.
        let Some(row) = leaving_row(&t, width, &basis, enter, stalled >= STALL) else {
            break;
        };
        pivot(&mut t, width, row, enter);
        let factor = cost[enter];
        for j in 0..rhs {
            cost[j] -= factor * t[row * width + j];
        }
        cost[enter] = 0.0;
        let gain = factor * t[row * width + rhs];
        objective += gain;
        stalled = if gain > 1e-14 * objective {
            0
        } else {
            stalled + 1
        };
        basis[row] = enter;
    }
    // objective = sum(w) = 1 / v' with v' the value of A.
    let scaled_value = 1.0 / objective;
    let mut columns = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            columns[b] = t[i * width + rhs].max(0.0) * scaled_value;
        }
    }
    let mut rows: Vec<f64> = (0..m)
        .map(|i| (-cost[n + i]).max(0.0) * scaled_value)
        .collect();
    normalise(&mut rows);
    normalise(&mut columns);
    Solved {
        value: (scaled_value - FLOOR) * span + min,
        rows,
        columns,
    }
}

/// Divides tableau row `row` by its entry in column `col` and clears that
/// column from every other row.
fn pivot(t: &mut [f64], width: usize, row: usize, col: usize) {
    let p = t[row * width + col];
    for j in 0..width {
        t[row * width + j] /= p;
    }
    let m = t.len() / width;
    for i in (0..m).filter(|&i| i != row) {
        let factor = t[i * width + col];
        if factor != 0.0 {
            for j in 0..width {
                t[i * width + j] -= factor * t[row * width + j];
            }
        }
    }
}

/// Clears rounding noise (negative or tiny weights) and rescales to sum 1.
fn normalise(weights: &mut [f64]) {
    for w in weights.iter_mut() {
        if *w < 1e-12 {
            *w = 0.0;
        }
    }
    let sum: f64 = weights.iter().sum();
    if sum > 0.0 {
        for w in weights.iter_mut() {
            *w /= sum;
        }
    } else {
        weights[0] = 1.0;
    }
}

#[cfg(test)]
mod tests;
