//! The mixed duel bot's turn: an approximate equilibrium of the turn's matrix
//! game, and the best reply to a mixed strategy (the exploiter's move).
//!
//! A turn is a simultaneous-move game, and a bot that always plays the same
//! list in the same state hands a predicting opponent a best reply every turn.
//! The mixed search solves the turn's game for a mixed strategy instead:
//! rows are its own legal lists, columns the opponent's, each entry the turn
//! resolved by the fast engine and scored by [`evaluate_mixed`] (the race
//! evaluation as an expected score), a zero-sum game since the score is
//! antisymmetric. The game has up to 945 x 945 entries, so it is solved by the
//! double oracle ([`double_oracle`]) over the turn's lists, each row or column
//! resolved only when it joins the restricted game.
//!
//! The steps:
//! 1. The race maximin ([`Searcher::maximin_by`] under [`evaluate_race`],
//!    pruned and exact) finds the best pure list and, on the way, the replies
//!    that refuted the most rows (its killer columns). A sure win is played at
//!    once.
//! 2. The double oracle starts from that list and the first killers, and runs
//!    until the best replies to both strategies are within [`TOLERANCE`] (a
//!    ten-thousandth of a win), [`MAX_ROUNDS`] restricted games, or the
//!    deadline.
//! 3. **Safety.** When the maximin found a list that no reply beats with an
//!    immediate loss (its value is above `-WIN_VALUE`), every list that some
//!    reply beats that way is barred from the strategy ([`Options::floor`]):
//!    the start is such a safe list, so the strategy always has one. When every
//!    list can lose, nothing is barred, and the equilibrium weighs each loss at
//!    a whole win.
//!
//! The result is the strategy (lists and weights); the bot samples it with its
//! seeded generator. [`Searcher::best_reply`] is the other side of the coin:
//! the list with the best expected score against a known mixed strategy.

use super::fast::{choose, Choice};
use super::race::evaluate_race;
use super::search::{joint_value, Searcher};
use super::{Actions, State, TurnResult, WIN_VALUE};
use crate::matrix_game::{double_oracle, Options, Payoffs};
use std::time::Instant;

/// A won turn in [`evaluate_mixed`]; a loss is its negation, a draw 0.
pub const MIXED_WIN: i32 = 10_000;

/// The race evaluation's scale in [`evaluate_mixed`]: a lead of this many
/// points is worth `tanh(1)`, three quarters of a win.
pub const SQUASH: f64 = 1500.0;

/// What [`evaluate_mixed`] adds to the race evaluation for standing on the
/// spring after the turn (the opponent's standing there counts against).
pub const SPRING_HOLD: i32 = 800;

/// The mixed search's payoff: the race evaluation ([`evaluate_race`]) plus
/// [`SPRING_HOLD`] for holding the spring, as an expected score,
/// `MIXED_WIN * tanh(lead / SQUASH)`; a finished game `MIXED_WIN`,
/// `-MIXED_WIN` or 0. Antisymmetric like the race evaluation.
///
/// Why not the race evaluation itself: its `WIN_VALUE` of 10^6 is only an
/// order for a maximin (a win above everything), but in an expectation it is
/// a price, and at 10^6 a 0.1% chance of an immediate win is worth 1,000
/// points, ten hp. An equilibrium under it props its guarantees up with such
/// lottery tickets, and an opponent that knows the odds takes the position
/// and leaves the ticket: a best reply beat that bot in 89% of 40 games. A
/// bounded score prices a win like a decisive lead (the best reply's share
/// fell to 56-58%).
///
/// Why the spring term: against its best reply the bot lost mostly the
/// blessing race, the equilibrium mixing in lists that leave the spring; the
/// extra weight on holding it brought the best reply's share to 39-44% over
/// 200 games (and cost the race search's share against it, 0.74 to 0.63).
/// (The earlier helper's figures; its notes on the settings tried were never
/// committed. `docs/notes/2026-12-02-duel-mixed.md` has the re-measured ones.)
pub fn evaluate_mixed(result: &TurnResult, player: usize) -> i32 {
    if let Some(v) = super::ended_value(result, player) {
        return v.signum() * MIXED_WIN;
    }
    let next = &result.next;
    let holds = |p: usize| i32::from(next.players[p].pos == next.spring);
    let lead = evaluate_race(result, player) + SPRING_HOLD * (holds(player) - holds(1 - player));
    let score = (f64::from(MIXED_WIN) * (f64::from(lead) / SQUASH).tanh()).round() as i32;
    // Held below a win's score, whatever the lead.
    score.clamp(-MIXED_WIN + 1, MIXED_WIN - 1)
}

/// The double oracle stops when the best replies are this close (in
/// [`evaluate_mixed`]'s units, a ten-thousandth of a win).
pub const TOLERANCE: f64 = 1.0;

/// At most this many restricted games a turn: each adds a row and a column at
/// most, so the restricted game stays small enough to solve in microseconds.
pub const MAX_ROUNDS: usize = 48;

/// Killer columns the double oracle starts from.
const START_COLUMNS: usize = 4;

/// What the mixed search found.
#[derive(Debug, Clone, PartialEq)]
pub struct MixedResult {
    /// The strategy: lists and weights (summing to 1), largest weight first.
    pub lists: Vec<(Actions, f64)>,
    /// The restricted game's value and the best replies' bounds (see
    /// [`crate::matrix_game::Equilibrium`]).
    pub value: f64,
    pub lower: f64,
    pub upper: f64,
    pub rounds: usize,
    /// Lists barred for an immediate loss.
    pub barred: usize,
    /// Whether some list cannot lose at once (the safety rule applied).
    pub safe: bool,
    /// Whether the double oracle reached its tolerance.
    pub converged: bool,
}

/// One turn as a matrix game for [`double_oracle`]: `player`'s lists as rows,
/// the opponent's as columns, the race evaluation for `player` as payoffs.
struct TurnGame<'a> {
    state: &'a State,
    player: usize,
    rows: &'a [Choice],
    columns: &'a [Choice],
}

impl TurnGame<'_> {
    fn payoff(&self, r: usize, c: usize) -> i32 {
        joint_value(
            self.state,
            self.player,
            &evaluate_mixed,
            self.rows[r],
            self.columns[c],
        )
    }
}

impl Payoffs for TurnGame<'_> {
    fn rows(&self) -> usize {
        self.rows.len()
    }
    fn columns(&self) -> usize {
        self.columns.len()
    }
    fn row(&mut self, r: usize, out: &mut Vec<i32>) {
        out.clear();
        out.extend((0..self.columns.len()).map(|c| self.payoff(r, c)));
    }
    fn column(&mut self, c: usize, out: &mut Vec<i32>) {
        out.clear();
        out.extend((0..self.rows.len()).map(|r| self.payoff(r, c)));
    }
    fn entry(&mut self, r: usize, c: usize) -> i32 {
        self.payoff(r, c)
    }
}

impl Searcher {
    /// The mixed search for `player` in `state` (see the module's doc),
    /// stopping its rounds once `deadline` has passed.
    pub fn mixed(
        &mut self,
        state: &State,
        player: usize,
        deadline: Option<Instant>,
    ) -> MixedResult {
        let first = self.maximin_by(state, player, deadline, evaluate_race);
        let pure = |value: i32| MixedResult {
            lists: vec![(first.best, 1.0)],
            value: f64::from(value),
            lower: f64::from(value),
            upper: f64::from(value),
            rounds: 0,
            barred: 0,
            safe: value > -WIN_VALUE,
            converged: true,
        };
        if first.value == WIN_VALUE || self.rows.is_empty() || self.columns.is_empty() {
            return pure(first.value);
        }
        let start_row = self
            .rows
            .iter()
            .position(|&list| list == first.best)
            .unwrap_or(0);
        let safe = first.value > -WIN_VALUE;
        // A loss is exactly -MIXED_WIN; every other score is above it.
        let floor = safe.then_some(-MIXED_WIN + 1);
        let options = Options {
            start_rows: vec![start_row],
            start_columns: self.killers.iter().copied().take(START_COLUMNS).collect(),
            tolerance: TOLERANCE,
            max_rounds: MAX_ROUNDS,
            deadline,
            floor,
        };
        let mut game = TurnGame {
            state,
            player,
            rows: &self.row_choices,
            columns: &self.column_choices,
        };
        let found = double_oracle(&mut game, &options);
        let mut lists: Vec<(Actions, f64)> =
            found.rows.iter().map(|&(r, w)| (self.rows[r], w)).collect();
        // Largest weight first; the sort is stable, so equal weights keep the
        // double oracle's order and the result is the same on every machine.
        lists.sort_by(|a, b| b.1.total_cmp(&a.1));
        MixedResult {
            lists,
            value: found.value,
            lower: found.lower,
            upper: found.upper,
            rounds: found.rounds,
            barred: found.barred,
            safe,
            converged: found.converged,
        }
    }

    /// `player`'s list with the best expected [`evaluate_mixed`] score against
    /// the opponent's mixed strategy `theirs` (lists and weights; lists that are
    /// not legal for the opponent are skipped): what an exploiter that knows
    /// the opponent's strategy plays. Ties go to the first list in
    /// [`legal_lists`](super::legal_lists) order.
    pub fn best_reply(
        &mut self,
        state: &State,
        player: usize,
        theirs: &[(Actions, f64)],
    ) -> Actions {
        let expected = self.expected_scores(state, player, theirs);
        let mut best = (f64::NEG_INFINITY, [super::Action::WAIT; 2]);
        for (&row, &e) in self.rows.iter().zip(&expected) {
            if e > best.0 {
                best = (e, row);
            }
        }
        best.1
    }

    /// The best reply to `theirs` among the lists that no reply beats with an
    /// immediate loss, when one is found (else the plain best reply): what
    /// the bot plays against an opponent it has read (`crates/arena/src/reading.rs`),
    /// so that a wrong reading costs position, never the game at once.
    ///
    /// Rows are tried best-first by their expected score, and each one's worst
    /// case is checked over every opponent list, the replies that beat earlier
    /// rows first (the killers of [`Searcher::race`]); the first row that
    /// cannot lose at once is played. Usually the first or second passes. In a
    /// position where every list can lose, the check would cost the whole
    /// matrix, so it stops at `deadline` and plays the best reply.
    pub fn safe_reply(
        &mut self,
        state: &State,
        player: usize,
        theirs: &[(Actions, f64)],
        deadline: Option<Instant>,
    ) -> Actions {
        let expected = self.expected_scores(state, player, theirs);
        let mut order: Vec<usize> = (0..self.rows.len()).collect();
        // Stable: equal scores keep the legal-list order, as `best_reply` does.
        order.sort_by(|&a, &b| expected[b].total_cmp(&expected[a]));
        let Some(&first) = order.first() else {
            return [super::Action::WAIT; 2];
        };
        super::legal_lists(state, 1 - player, &mut self.columns);
        let opponent = &state.players[1 - player];
        self.column_choices.clear();
        self.column_choices
            .extend(self.columns.iter().map(|list| choose(opponent, list)));
        self.killers.clear();
        let me = &state.players[player];
        for (n, &r) in order.iter().enumerate() {
            if n > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let mine = choose(me, &self.rows[r]);
            let columns = &self.column_choices;
            let loses = |c: usize| {
                joint_value(state, player, &evaluate_mixed, mine, columns[c]) == -MIXED_WIN
            };
            let killer = self.killers.iter().position(|&c| loses(c));
            if let Some(k) = killer {
                // Move to front: the reply that beat this row likely beats the next.
                let c = self.killers.remove(k);
                self.killers.insert(0, c);
                continue;
            }
            match (0..columns.len()).find(|&c| loses(c)) {
                Some(c) => self.killers.insert(0, c),
                None => return self.rows[r],
            }
        }
        self.rows[first]
    }

    /// Each of `player`'s legal lists (left in `self.rows`) scored by its
    /// expected [`evaluate_mixed`] against `theirs`.
    fn expected_scores(
        &mut self,
        state: &State,
        player: usize,
        theirs: &[(Actions, f64)],
    ) -> Vec<f64> {
        super::legal_lists(state, player, &mut self.rows);
        let opponent = &state.players[1 - player];
        let replies: Vec<(Choice, f64)> = theirs
            .iter()
            .filter(|(list, w)| *w > 0.0 && super::check_legal(state, 1 - player, list).is_ok())
            .map(|(list, w)| (choose(opponent, list), *w))
            .collect();
        let me = &state.players[player];
        self.rows
            .iter()
            .map(|row| {
                let mine = choose(me, row);
                replies
                    .iter()
                    .map(|&(column, w)| {
                        w * f64::from(joint_value(state, player, &evaluate_mixed, mine, column))
                    })
                    .sum()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
