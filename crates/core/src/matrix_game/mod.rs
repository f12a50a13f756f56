//! The equilibrium solver of the duel's mixed bot, and the puzzle that checks
//! it: a zero-sum matrix game in, its value and the worth of the solver's own
//! strategies out.
//!
//! The solver is the double oracle ([`oracle`]) over an exact linear program
//! for each restricted game ([`simplex`]); the `mixed` duel bot runs it on a
//! turn's matrix of lists (`duel::mixed`), this module's [`Model`] on a small
//! integer matrix, so that the differential (`lockstep fuzz matrix-game`) holds
//! the same code to the reference's exact enumeration.
//!
//! **The answer is exact fractions.** The core works in floating point; the
//! reference in integers. Three numbers are printed: the value of the last
//! restricted game, what the core's row strategy guarantees against every
//! column, and what its column strategy concedes at most against every row.
//! The core prints each as the fraction with the smallest denominator within
//! [`EPSILON`] of its float ([`Value::snapped`]); the reference prints the exact
//! value three times (its strategies are exact). The limits on the entries
//! ([`max_entry`]) keep every possible value's denominator below
//! [`MAX_DENOMINATOR`], and two fractions with denominators that small lie
//! more than `2 * EPSILON` apart: the core's fraction is the true value exactly
//! when its float is within `EPSILON` of it. So the printed lines are equal
//! exactly when the core's value is within `EPSILON` of the game's value and
//! its two strategies are an `EPSILON`-equilibrium (each best reply to them
//! within `EPSILON` of the value). The rule page (docs/guide/src/rules/matrix_game.md)
//! gives the bound's derivation.

// Rows and columns are indexed by r and c throughout, as the rule page
// writes them; zipped iterators would read worse.
#![allow(clippy::needless_range_loop)]

pub mod oracle;
pub mod simplex;

pub use oracle::{double_oracle, Dense, Equilibrium, Options, Payoffs};
pub use simplex::{solve_game, Solved};

use crate::input::{InputError, Lines};
use crate::{Model, Run};

/// The most rows and the most columns of a case.
pub const MAX_SIDE: usize = 6;

/// The tolerance of the comparison: the core's value and both best replies to
/// its strategies must lie within it of the game's value.
pub const EPSILON: f64 = 1e-10;

/// No value of a game within the limits has a larger denominator (the rule
/// page derives it); `2 * EPSILON * MAX_DENOMINATOR^2 < 1`.
pub const MAX_DENOMINATOR: i64 = 70_000;

/// The largest |entry| allowed when the smaller side of the game is `k`:
/// `k^2 K^(k-1) (k-1)^((k-1)/2)` bounds the denominator of the value, and it
/// must stay under [`MAX_DENOMINATOR`].
pub fn max_entry(k: usize) -> i32 {
    match k {
        0..=4 => 9,
        5 => 3,
        _ => 2,
    }
}

/// A zero-sum game: the row player's payoffs (the column player's are their
/// negation).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Game {
    pub rows: usize,
    pub columns: usize,
    /// Row-major, `rows * columns` entries.
    pub entries: Vec<i32>,
}

impl Game {
    pub fn entry(&self, r: usize, c: usize) -> i32 {
        self.entries[r * self.columns + c]
    }

    /// Checks the limits (the parser enforces them with line numbers).
    pub fn validate(&self) -> Result<(), String> {
        for (name, side) in [("M", self.rows), ("N", self.columns)] {
            if !(1..=MAX_SIDE).contains(&side) {
                return Err(format!("{name} must be in 1..={MAX_SIDE}, found {side}"));
            }
        }
        if self.entries.len() != self.rows * self.columns {
            return Err("the matrix does not have M*N entries".to_string());
        }
        let bound = max_entry(self.rows.min(self.columns));
        match self.entries.iter().find(|e| e.abs() > bound) {
            Some(e) => Err(format!(
                "entry {e} is out of -{bound}..={bound} (the bound for a game whose smaller side is {})",
                self.rows.min(self.columns)
            )),
            None => Ok(()),
        }
    }
}

/// A number of the answer: a fraction `p/q` (q >= 1, lowest terms), or, when
/// the core's float is near no fraction of denominator up to
/// [`MAX_DENOMINATOR`], the float itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Exact(i64, i64),
    Approx(f64),
}

impl Value {
    /// The fraction with the smallest denominator within [`EPSILON`] of `x`.
    /// The first denominator that has one has only one (two fractions of
    /// denominators up to `MAX_DENOMINATOR` are over `2 * EPSILON` apart), and
    /// it is in lowest terms (a smaller denominator would have come first).
    pub fn snapped(x: f64) -> Value {
        for q in 1..=MAX_DENOMINATOR {
            let scaled = x * q as f64;
            let p = scaled.round();
            if (p - scaled).abs() <= EPSILON * q as f64 {
                return Value::Exact(p as i64, q);
            }
        }
        Value::Approx(x)
    }
}

/// By parts, the float by its bits: what a digest of answers needs (equal
/// values hash alike; `-0.0` and `0.0`, equal, hash apart, which no answer
/// holds, since the value is snapped or printed to 12 places first).
impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match *self {
            Value::Exact(p, q) => (0u8, p, q).hash(state),
            Value::Approx(x) => (1u8, x.to_bits()).hash(state),
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Value::Exact(p, 1) => write!(f, "{p}"),
            Value::Exact(p, q) => write!(f, "{p}/{q}"),
            Value::Approx(x) => write!(f, "~{x:.12}"),
        }
    }
}

/// `[value, lower, upper]`: the value, what the row strategy guarantees, what
/// the column strategy concedes at most.
pub type Values = [Value; 3];

/// Both strategies of an equilibrium over the whole game, one weight per row
/// and per column (zero off the support).
#[derive(Debug, Clone, PartialEq)]
pub struct Strategies {
    pub value: f64,
    pub rows: Vec<f64>,
    pub columns: Vec<f64>,
}

/// How the puzzle runs the double oracle: from row 0 and column 0, to a
/// tenth of [`EPSILON`], with no deadline, rounds enough to take every row and
/// column.
pub fn puzzle_options(game: &Game) -> Options {
    Options {
        start_rows: vec![0],
        start_columns: vec![0],
        tolerance: EPSILON / 10.0,
        max_rounds: game.rows + game.columns + 2,
        deadline: None,
        floor: None,
    }
}

/// The core's solver on a whole game ([`double_oracle`] with `options`), its
/// strategies spread over every row and column.
pub fn equilibrium_with(game: &Game, options: &Options) -> Strategies {
    let mut dense = Dense {
        rows: game.rows,
        columns: game.columns,
        entries: &game.entries,
    };
    let found = double_oracle(&mut dense, options);
    let spread = |pairs: &[(usize, f64)], len: usize| {
        let mut weights = vec![0.0; len];
        for &(i, w) in pairs {
            weights[i] += w;
        }
        weights
    };
    Strategies {
        value: found.value,
        rows: spread(&found.rows, game.rows),
        columns: spread(&found.columns, game.columns),
    }
}

/// [`equilibrium_with`] the [`puzzle_options`].
pub fn equilibrium(game: &Game) -> Strategies {
    equilibrium_with(game, &puzzle_options(game))
}

/// The answer a pair of strategies gives: the value they claim and both best
/// replies to them ([`best_replies`]), each [`Value::snapped`].
pub fn answer_of(game: &Game, strategies: &Strategies) -> Values {
    let (lower, upper) = best_replies(game, strategies);
    [strategies.value, lower, upper].map(Value::snapped)
}

/// What `rows` guarantees (the worst column against it) and what `columns`
/// concedes (the best row against it): plain loops over the whole matrix,
/// apart from the double oracle's cached best replies.
pub fn best_replies(game: &Game, strategies: &Strategies) -> (f64, f64) {
    let lower = earned(&strategies.rows, game.columns, |r, c| game.entry(r, c));
    let upper = earned(&strategies.columns, game.rows, |c, r| game.entry(r, c));
    (
        lower.fold(f64::INFINITY, f64::min),
        upper.fold(f64::NEG_INFINITY, f64::max),
    )
}

/// What `mix` earns against each pure reply in turn, `entry(mine, reply)`
/// the payoff, summed in the order of `mix`.
fn earned<'a>(
    mix: &'a [f64],
    replies: usize,
    entry: impl Fn(usize, usize) -> i32 + 'a,
) -> impl Iterator<Item = f64> + 'a {
    (0..replies).map(move |reply| {
        let terms = mix.iter().enumerate();
        terms.fold(0.0, |sum, (i, &p)| sum + p * f64::from(entry(i, reply)))
    })
}

fn solve(game: &Game) -> Run<Values> {
    solve_seeing(game, |_| {})
}

/// The core's answer, with the equilibrium it comes from shown to `seen`:
/// what `lockstep verify` counts the rule branches from (the supports'
/// sizes), in the same run that answers. [`Model::solve`] is this with a
/// closure that does nothing.
pub fn solve_seeing(game: &Game, seen: impl FnOnce(&Strategies)) -> Run<Values> {
    let strategies = equilibrium(game);
    seen(&strategies);
    Run {
        answer: answer_of(game, &strategies),
        digest: 0,
    }
}

impl Model for Game {
    type Answer = Values;

    /// `M N`, then M lines of N integers.
    fn parse(text: &str) -> Result<Game, InputError> {
        let mut lines = Lines::checked(text)?;
        let head = lines.next_exact(2, "M and N")?;
        let rows = head.int(0, "M", 1..=MAX_SIDE)?;
        let columns = head.int(1, "N", 1..=MAX_SIDE)?;
        let bound = max_entry(rows.min(columns));
        let mut entries = Vec::with_capacity(rows * columns);
        for _ in 0..rows {
            let line = lines.next_exact(columns, &format!("a row of {columns} payoffs"))?;
            for c in 0..columns {
                entries.push(line.int(c, "a payoff", -bound..=bound)?);
            }
        }
        lines.finish()?;
        Ok(Game {
            rows,
            columns,
            entries,
        })
    }

    fn write_input(&self) -> String {
        let mut out = format!("{} {}\n", self.rows, self.columns);
        for r in 0..self.rows {
            let row: Vec<String> = (0..self.columns)
                .map(|c| self.entry(r, c).to_string())
                .collect();
            out.push_str(&row.join(" "));
            out.push('\n');
        }
        out
    }

    fn write_answer(answer: &Values) -> String {
        let [v, lower, upper] = answer;
        format!("{v} {lower} {upper}\n")
    }

    fn solve(&self) -> Run<Values> {
        solve(self)
    }
}

#[cfg(test)]
mod tests;
