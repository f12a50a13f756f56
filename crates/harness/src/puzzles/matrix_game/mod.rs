//! The mixed duel bot's equilibrium solver in the harness: small integer
//! matrix games, the core's double oracle against the reference's exact
//! kernel enumeration (`docs/guide/src/rules/matrix_game.md`).
//!
//! The generator draws games up to 6 x 6 within the entry bound of their size
//! ([`max_entry`]), in the shapes that trouble a solver: plain random games,
//! games with a planted saddle point (a pure answer the double oracle must
//! not mix away), skew-symmetric games (value 0, like a duel's symmetric
//! positions), duplicated and dominated rows and columns (degenerate games
//! with many optimal strategies, where the simplex meets ties), and constant
//! games.

pub mod bench;
pub mod levels;

use crate::puzzle::{CaseLimits, Explanation, Generated, Puzzle};
use crate::shrink::without_line;
use arbitrary::Unstructured;
use lockstep_core::matrix_game::{self as model, best_replies, max_entry, Game, Values};
use lockstep_core::Model;
use lockstep_reference::matrix_game as reference;
use lockstep_reference::{Fuel, Naive};

pub struct MatrixGame;

/// What the shrinker lowers: rows plus columns, then the sum of |entries|.
/// Every candidate lowers one and raises none (a test holds it).
pub fn shrink_measure(game: &Game) -> [u32; 2] {
    [
        (game.rows + game.columns) as u32,
        game.entries.iter().map(|e| e.unsigned_abs()).sum(),
    ]
}

/// The rule branches `--stats` counts (its rule page's rule index names each in its
/// rule's row), read off the game and the core's equilibrium of it.
pub const RULE_BRANCHES: [&str; 8] = [
    "a saddle point (both strategies pure)",
    "a mixed equilibrium (a support of two or more)",
    "a support of three or more",
    "a value of 0",
    "a negative value",
    "a single row or column",
    "a side of 5 or 6",
    "a repeated row or column",
];

/// The [`RULE_BRANCHES`] of `game` when the core's equilibrium is `core`.
fn branches(game: &Game, core: &model::Strategies) -> u64 {
    let support = |w: &[f64]| w.iter().filter(|&&x| x > 0.0).count();
    let (rows, columns) = (support(&core.rows), support(&core.columns));
    let value = model::Value::snapped(core.value);
    let row = |r: usize| &game.entries[r * game.columns..(r + 1) * game.columns];
    let same_columns =
        |a: usize, b: usize| (0..game.rows).all(|r| game.entry(r, a) == game.entry(r, b));
    let repeated = (0..game.rows).any(|a| (a + 1..game.rows).any(|b| row(a) == row(b)))
        || (0..game.columns).any(|a| (a + 1..game.columns).any(|b| same_columns(a, b)));
    [
        rows == 1 && columns == 1,
        rows >= 2 || columns >= 2,
        rows >= 3 || columns >= 3,
        value == model::Value::Exact(0, 1),
        core.value < 0.0,
        game.rows == 1 || game.columns == 1,
        game.rows.max(game.columns) >= 5,
        repeated,
    ]
    .iter()
    .enumerate()
    .fold(0, |bits, (i, &on)| bits | u64::from(on) << i)
}

impl Puzzle for MatrixGame {
    /// Square submatrices tried: a 6 x 6 game has 923.
    const FUEL: u64 = 10_000;

    type Case = Game;
    type Answer = Values;

    /// A game of one to six rows and columns, mostly small, its entries
    /// within a bound of their own.
    fn generate(u: &mut Unstructured<'_>, _limits: CaseLimits) -> Generated<Self> {
        let side = |u: &mut Unstructured<'_>| -> arbitrary::Result<usize> {
            Ok(match u.int_in_range(0..=19u8)? {
                0 => 1,
                1..=14 => u.int_in_range(2..=4)?,
                _ => u.int_in_range(5..=model::MAX_SIDE)?,
            })
        };
        let (rows, columns) = (side(u)?, side(u)?);
        let bound = u.int_in_range(1..=max_entry(rows.min(columns)))?;
        let mut entries = Vec::with_capacity(rows * columns);
        for _ in 0..rows * columns {
            entries.push(u.int_in_range(-bound..=bound)?);
        }
        let mut game = Game {
            rows,
            columns,
            entries,
        };
        match u.int_in_range(0..=9u8)? {
            // A saddle point at (r, c): the largest of its column, the smallest
            // of its row.
            0 | 1 => {
                let (r, c) = (
                    u.int_in_range(0..=rows - 1)?,
                    u.int_in_range(0..=columns - 1)?,
                );
                let v = u.int_in_range(-bound..=bound)?;
                for k in 0..columns {
                    let e = &mut game.entries[r * columns + k];
                    *e = (*e).max(v);
                }
                for k in 0..rows {
                    let e = &mut game.entries[k * columns + c];
                    *e = (*e).min(v);
                }
                game.entries[r * columns + c] = v;
            }
            // Skew-symmetric (square): A = -A^T, the value is 0.
            2 if rows == columns => {
                for r in 0..rows {
                    game.entries[r * columns + r] = 0;
                    for c in r + 1..columns {
                        game.entries[c * columns + r] = -game.entries[r * columns + c];
                    }
                }
            }
            // A row or a column copied, or lowered by one (dominated).
            3 | 4 if rows > 1 || columns > 1 => {
                let lower = u.ratio(1, 2)?;
                if rows > 1 && (columns == 1 || u.ratio(1, 2)?) {
                    let (from, to) = (u.int_in_range(0..=rows - 1)?, u.int_in_range(0..=rows - 1)?);
                    for c in 0..columns {
                        let e = game.entries[from * columns + c];
                        game.entries[to * columns + c] =
                            if lower { (e - 1).max(-bound) } else { e };
                    }
                } else {
                    let (from, to) = (
                        u.int_in_range(0..=columns - 1)?,
                        u.int_in_range(0..=columns - 1)?,
                    );
                    for r in 0..rows {
                        let e = game.entries[r * columns + from];
                        // A dominated column is better for the row player.
                        game.entries[r * columns + to] = if lower { (e + 1).min(bound) } else { e };
                    }
                }
            }
            5 if u.ratio(1, 4)? => {
                let v = u.int_in_range(-bound..=bound)?;
                game.entries.iter_mut().for_each(|e| *e = v);
            }
            _ => {}
        }
        Ok((game, None))
    }

    fn describe(game: &Game) -> String {
        let largest = game.entries.iter().map(|e| e.abs()).max().unwrap_or(0);
        format!(
            "{} x {} game, entries within -{largest}..={largest}",
            game.rows, game.columns
        )
    }

    fn explain(game: &Game) -> Explanation {
        let core = model::equilibrium(game);
        let (lower, upper) = best_replies(game, &core);
        let naive = game.solve_naively(&mut Fuel::unlimited());
        let exact = naive
            .as_ref()
            .map(|run| Game::write_answer(&run.answer).trim_end().to_string())
            .unwrap_or_else(|_| "(out of fuel)".to_string());
        let (ref_lower, ref_upper) = reference::best_replies(game, &core.rows, &core.columns);
        let shown = |w: &[f64]| {
            let words: Vec<String> = w.iter().map(|x| format!("{x:.6}")).collect();
            words.join(" ")
        };
        let report = format!(
            "game:\n{}core: value {:.12}, row strategy [{}] guarantees {lower:.12}, column strategy [{}] concedes {upper:.12}\n\
             the reference's best replies to the core's strategies: {ref_lower:.12} and {ref_upper:.12}\n\
             reference (exact): {exact}\n",
            game.write_input(),
            core.value,
            shown(&core.rows),
            shown(&core.columns),
        );
        let core_answer = game.solve().answer;
        let symptom = match naive {
            Ok(run) => ["value", "row-strategy", "column-strategy"]
                .into_iter()
                .zip(core_answer.iter().zip(&run.answer))
                .find(|(_, (a, b))| a != b)
                .map_or("same-values", |(name, _)| name),
            Err(_) => "reference-out-of-fuel",
        };
        Explanation {
            symptom: symptom.to_string(),
            report,
        }
    }

    /// Which of the three numbers the core gets wrong, and which way
    /// (`value-low+lower-low`, say), and then which of the core's own bounds
    /// meet its value: a strategy whose bound is the claimed value is one
    /// the core believes optimal, so a wrong pure strategy (`lower-tight`)
    /// and a search that stopped early (`no-bound-tight`) read apart even
    /// when the same numbers are off.
    fn signature(answers: crate::puzzle::Answers<'_, Self>) -> String {
        let (core, reference) = (answers.core, answers.reference);
        let (c, r) = (core, reference);
        let real = |v: &model::Value| match *v {
            model::Value::Exact(p, q) => p as f64 / q as f64,
            model::Value::Approx(x) => x,
        };
        let names = ["value", "lower", "upper"];
        let mut parts: Vec<String> = (0..3)
            .filter(|&i| c[i] != r[i])
            .map(|i| {
                let side = if real(&c[i]) < real(&r[i]) {
                    "low"
                } else {
                    "high"
                };
                format!("{}-{side}", names[i])
            })
            .collect();
        if parts.is_empty() {
            return "same-values".to_string();
        }
        let tight: Vec<&str> = (1..3).filter(|&i| c[i] == c[0]).map(|i| names[i]).collect();
        parts.push(match tight.as_slice() {
            [] => "no-bound-tight".to_string(),
            [one] => format!("{one}-tight"),
            _ => "both-tight".to_string(),
        });
        parts.join("+")
    }

    fn shrink_candidates(game: &Game) -> Vec<Game> {
        let mut out = Vec::new();
        let (m, n) = (game.rows, game.columns);
        for drop in (0..m).filter(|_| m > 1) {
            out.push(Game {
                rows: m - 1,
                columns: n,
                entries: without_line(&game.entries, n, Some(drop), None),
            });
        }
        for drop in (0..n).filter(|_| n > 1) {
            out.push(Game {
                rows: m,
                columns: n - 1,
                entries: without_line(&game.entries, n, None, Some(drop)),
            });
        }
        for i in 0..m * n {
            let e = game.entries[i];
            for smaller in [0, e / 2, e - e.signum()] {
                if smaller.abs() < e.abs() {
                    let mut next = game.clone();
                    next.entries[i] = smaller;
                    if !out.contains(&next) {
                        out.push(next);
                    }
                }
            }
        }
        out
    }

    const RULE_BRANCHES: &'static [&'static str] = &RULE_BRANCHES;

    /// Which [`RULE_BRANCHES`] `game` goes through. The supports and the value
    /// are the core's (as `footholds` reads its branches off the core's line of
    /// play): a branch count is evidence of reach, not a second check.
    fn rule_branches(game: &Game) -> u64 {
        branches(game, &model::equilibrium(game))
    }

    /// `lockstep verify`'s levels (the rule page's "Sizes").
    const LEVELS: crate::enumerate::Levels<Self::Case> = levels::LEVELS;
}

impl crate::puzzle::Counting for MatrixGame {
    /// The core's answer and the branches of the equilibrium it came from,
    /// in one run ([`model::solve_seeing`]).
    fn solve_counting(game: &Game) -> Option<(lockstep_core::Run<Values>, u64)> {
        let mut bits = 0;
        let run = model::solve_seeing(game, |core| bits = branches(game, core));
        Some((run, bits))
    }
}
