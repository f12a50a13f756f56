//! A matrix game's value, exactly: Shapley and Snow's enumeration of square
//! submatrices, in integers, with plain loops.
//!
//! Every matrix game whose value is not 0 has an optimal pair of strategies
//! determined by a square nonsingular submatrix `B` (a "kernel", Shapley and
//! Snow, 1950): with `adj(B)` its adjugate and `s` the sum of all entries of
//! `adj(B)`,
//!
//! ```text
//! x = (column sums of adj(B)) / s,   y = (row sums of adj(B)) / s,   v = det(B) / s.
//! ```
//!
//! The game is first shifted so that every entry is at least 1 (its value is
//! then positive, and shifting moves the value by the same integer, nothing
//! else). Then every square submatrix is tried, smallest first, determinants by
//! cofactor expansion; a candidate is kept when both strategies are
//! non-negative and each holds against every row or column of the whole game,
//! all in exact integer arithmetic. The answer is the value, and, computed by
//! plain loops over the unshifted game from the exact strategies, what the row
//! strategy guarantees and what the column strategy concedes (both equal to the
//! value for an exact equilibrium; they are computed, not copied, so that the
//! answer means the same on both sides).
//!
//! Nothing of core's solver is used: only the model ([`Game`]) and the answer's
//! number type ([`Value`]). One unit of fuel per submatrix tried.

// Rows and columns are indexed by r and c throughout, as the rule page
// writes them; zipped iterators would read worse.
#![allow(clippy::needless_range_loop)]

use crate::{Fuel, Naive, OutOfFuel};
use lockstep_core::matrix_game::{Game, Value, Values};
use lockstep_core::Run;

/// The determinant of a square matrix, by cofactor expansion along the first
/// row.
fn det(m: &[Vec<i128>]) -> i128 {
    let k = m.len();
    if k == 1 {
        return m[0][0];
    }
    let mut total = 0;
    for j in 0..k {
        let sign = if j % 2 == 0 { 1 } else { -1 };
        total += sign * m[0][j] * det(&minor(m, 0, j));
    }
    total
}

/// `m` without row `i` and column `j`.
fn minor(m: &[Vec<i128>], i: usize, j: usize) -> Vec<Vec<i128>> {
    m.iter()
        .enumerate()
        .filter(|&(r, _)| r != i)
        .map(|(_, row)| {
            row.iter()
                .enumerate()
                .filter(|&(c, _)| c != j)
                .map(|(_, &v)| v)
                .collect()
        })
        .collect()
}

/// Every subset of `0..n` of size `k`, in lexicographic order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 0..n {
        for rest in subsets(n, k - 1) {
            if rest.first().is_none_or(|&r| r > first) {
                let mut s = vec![first];
                s.extend(rest);
                out.push(s);
            }
        }
    }
    out
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// `p / q` in lowest terms, `q > 0`.
fn fraction(p: i128, q: i128) -> Value {
    let g = gcd(p, q).max(1);
    let (p, q) = if q < 0 {
        (-p / g, -q / g)
    } else {
        (p / g, q / g)
    };
    Value::Exact(p as i64, q as i64)
}

/// An exact optimal pair: weights `x[r] / s` and `y[c] / s` over the whole
/// game (0 off the kernel), `s > 0`.
struct Kernel {
    x: Vec<i128>,
    y: Vec<i128>,
    s: i128,
    /// The value of the unshifted game, times `s`.
    value: i128,
}

/// The first kernel of `game` (shifted to positive entries) that is optimal.
fn find_kernel(game: &Game, fuel: &mut Fuel) -> Result<Kernel, OutOfFuel> {
    let (m, n) = (game.rows, game.columns);
    let least = (0..m)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .map(|(r, c)| game.entry(r, c))
        .min()
        .unwrap_or(0);
    let shift = i128::from(1 - least.min(1));
    let a = |r: usize, c: usize| i128::from(game.entry(r, c)) + shift;
    for k in 1..=m.min(n) {
        for rows in subsets(m, k) {
            for columns in subsets(n, k) {
                fuel.burn(1)?;
                let b: Vec<Vec<i128>> = rows
                    .iter()
                    .map(|&r| columns.iter().map(|&c| a(r, c)).collect())
                    .collect();
                let d = det(&b);
                if d == 0 {
                    continue;
                }
                // adj[j][i] = (-1)^(i+j) det(minor(b, i, j)).
                let mut adj = vec![vec![0i128; k]; k];
                for i in 0..k {
                    for j in 0..k {
                        let sign = if (i + j) % 2 == 0 { 1 } else { -1 };
                        adj[j][i] = if k == 1 {
                            1
                        } else {
                            sign * det(&minor(&b, i, j))
                        };
                    }
                }
                let mut s: i128 = adj.iter().flatten().sum();
                if s == 0 {
                    continue;
                }
                let mut d = d;
                let mut x = vec![0i128; m];
                let mut y = vec![0i128; n];
                for (i, &r) in rows.iter().enumerate() {
                    x[r] = (0..k).map(|l| adj[l][i]).sum();
                }
                for (j, &c) in columns.iter().enumerate() {
                    y[c] = (0..k).map(|l| adj[j][l]).sum();
                }
                if s < 0 {
                    s = -s;
                    d = -d;
                    x.iter_mut().for_each(|v| *v = -*v);
                    y.iter_mut().for_each(|v| *v = -*v);
                }
                if x.iter().chain(&y).any(|&v| v < 0) {
                    continue;
                }
                // v = d / s; x must get at least v from every column, and y
                // concede at most v to every row.
                let x_holds = (0..n).all(|c| (0..m).map(|r| x[r] * a(r, c)).sum::<i128>() >= d);
                let y_holds = (0..m).all(|r| (0..n).map(|c| a(r, c) * y[c]).sum::<i128>() <= d);
                if x_holds && y_holds {
                    let value = d - shift * s;
                    return Ok(Kernel { x, y, s, value });
                }
            }
        }
    }
    panic!("no optimal kernel: Shapley and Snow's theorem says one exists");
}

fn solve(game: &Game, fuel: &mut Fuel) -> Result<Run<Values>, OutOfFuel> {
    let kernel = find_kernel(game, fuel)?;
    let (m, n) = (game.rows, game.columns);
    let e = |r: usize, c: usize| i128::from(game.entry(r, c));
    // Over the unshifted game, times s.
    let lower = (0..n)
        .map(|c| (0..m).map(|r| kernel.x[r] * e(r, c)).sum::<i128>())
        .min()
        .expect("a column");
    let upper = (0..m)
        .map(|r| (0..n).map(|c| e(r, c) * kernel.y[c]).sum::<i128>())
        .max()
        .expect("a row");
    Ok(Run {
        answer: [kernel.value, lower, upper].map(|p| fraction(p, kernel.s)),
        digest: 0,
    })
}

/// The best replies to a pair of strategies given as weights over the whole
/// game (any solver's): what `rows` guarantees against its worst column, and
/// what `columns` concedes to its best row. Plain loops in floating point, for
/// the tests and the divergence report, which hold the core's strategies to
/// them.
pub fn best_replies(game: &Game, rows: &[f64], columns: &[f64]) -> (f64, f64) {
    let mut worst = f64::INFINITY;
    for c in 0..game.columns {
        let mut payoff = 0.0;
        for r in 0..game.rows {
            payoff += rows[r] * f64::from(game.entry(r, c));
        }
        if payoff < worst {
            worst = payoff;
        }
    }
    let mut best = f64::NEG_INFINITY;
    for r in 0..game.rows {
        let mut payoff = 0.0;
        for c in 0..game.columns {
            payoff += f64::from(game.entry(r, c)) * columns[c];
        }
        if payoff > best {
            best = payoff;
        }
    }
    (worst, best)
}

impl Naive for Game {
    fn solve_naively(&self, fuel: &mut Fuel) -> Result<Run<Values>, OutOfFuel> {
        solve(self, fuel)
    }
}

#[cfg(test)]
mod tests;
