//! The duel bot's search: depth-one maximin over the simultaneous-move matrix of a
//! turn, with row pruning, killer columns and a deadline.
//!
//! A turn is a matrix game: each player picks one of its legal action lists (up
//! to 1089, [`legal_lists`]) without seeing the other's. Every joint choice is
//! resolved by the fast engine (as [`resolve_turn`], no events; each list is read
//! once and every joint action resolves the two read lists) and scored by the
//! shared position evaluation ([`evaluate`], documented there: result, hp,
//! blessing race, distance to the spring, edge danger, waits). The search picks
//! the row (own list) whose worst column (the opponent's best reply) is highest:
//! the maximin value, a guarantee that holds whatever the opponent does.
//!
//! Why it is fast without changing the value:
//! - **Row pruning.** A row's running minimum can only fall as columns are
//!   scanned, so a row is dropped as soon as its minimum is at or below the best
//!   row so far (it cannot beat it; ties keep the earlier row). The value is
//!   exactly the maximin of the rows scanned; only the work changes.
//! - **Killer columns.** The replies that refuted earlier rows are tried first on
//!   every row (a short move-to-front list): one good refutation usually prunes a
//!   row after a handful of columns instead of a thousand.
//! - **Row order.** Rows are scanned best-first by their score against an
//!   opponent that waits, so a strong row comes early and sets a high bar; among
//!   rows of equal maximin value the earlier (more enterprising) one is kept.
//! - A guaranteed win ([`WIN_VALUE`]) ends the search at once.
//!
//! How time is spent: the bot passes a deadline. Ordering the rows costs one
//! resolution per row (about a thousand); then rows are scanned in order, and the
//! clock is read before each row (a row is at most ~1089 resolutions, tens of
//! microseconds), so the search overruns its deadline by at most one row. A
//! search stopped early returns the maximin over the rows it finished, which
//! always includes the first. The bot decides the deadline (a share of its
//! remaining time, see `crates/arena/src/bots.rs`); without one the search is exhaustive,
//! which is what the differential (`lockstep fuzz duel-search`) compares against
//! the reference's plain loops.

use super::fast::{choose, resolve_choices, Choice};
use super::{evaluate, legal_lists, resolve_turn, Action, Actions, State, TurnResult, WIN_VALUE};
use std::time::Instant;

/// How many refuting columns are kept and tried first on every row.
const KILLERS: usize = 16;

/// What a search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchResult {
    /// The maximin value over the rows scanned (for the searching player).
    pub value: i32,
    /// The chosen action list: a row whose worst case is `value`.
    pub best: Actions,
    /// Whether every row was decided (scanned fully or pruned): false when the
    /// deadline cut the search short.
    pub complete: bool,
    /// Rows decided, of `rows`.
    pub rows_done: usize,
    pub rows: usize,
    pub columns: usize,
    /// Joint actions resolved and evaluated.
    pub resolutions: u64,
}

/// `player`'s legal lists in `state`, and each read once ([`choose`]).
fn read_lists(state: &State, player: usize, lists: &mut Vec<Actions>, choices: &mut Vec<Choice>) {
    legal_lists(state, player, lists);
    choices.clear();
    choices.extend(
        lists
            .iter()
            .map(|list| choose(&state.players[player], list)),
    );
}

/// Resolves every joint action of `state`'s turn (each player's legal lists, in
/// [`legal_lists`] order, player 1's as rows), each list read once as
/// [`Searcher::maximin`] reads them, and hands each result to `each`; returns
/// how many there were. The engine's rate where a search uses it: the bench's
/// search-shaped measure.
pub fn for_each_joint_action(state: &State, mut each: impl FnMut(&TurnResult)) -> usize {
    let read = |p: usize| {
        let (mut lists, mut choices) = (Vec::new(), Vec::new());
        read_lists(state, p, &mut lists, &mut choices);
        choices
    };
    let (rows, columns) = (read(0), read(1));
    for &row in &rows {
        for &column in &columns {
            each(&resolve_choices(state, [row, column], &mut ()));
        }
    }
    rows.len() * columns.len()
}

/// `eval` of the turn where `player` plays `mine` and the opponent `theirs`.
#[inline(always)]
pub(super) fn joint_value(
    state: &State,
    player: usize,
    eval: &impl Fn(&TurnResult, usize) -> i32,
    mine: Choice,
    theirs: Choice,
) -> i32 {
    let choices = if player == 0 {
        [mine, theirs]
    } else {
        [theirs, mine]
    };
    eval(&resolve_choices(state, choices, &mut ()), player)
}

/// Buffers reused from one search to the next (a bot searches every turn).
#[derive(Debug, Default)]
pub struct Searcher {
    // The lists, their reads and the killers are the mixed search's start
    // (`super::mixed`), which runs after a maximin on the same buffers.
    pub(super) rows: Vec<Actions>,
    pub(super) columns: Vec<Actions>,
    /// Each row and column read once (legality, action ids, waits after), not
    /// once per joint action.
    pub(super) row_choices: Vec<Choice>,
    pub(super) column_choices: Vec<Choice>,
    order: Vec<(i32, usize)>,
    pub(super) killers: Vec<usize>,
    /// The row number (1-based) that last tried each column, to skip the killers
    /// in the full scan.
    tried: Vec<usize>,
    /// The race search's second pass: the losing replies of the current row
    /// that are not killers yet.
    new_killers: Vec<usize>,
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher::default()
    }

    /// Maximin for `player` in `state` under the shared [`evaluate`], stopping
    /// before the next row once `deadline` has passed (`None`: exhaustive).
    pub fn maximin(
        &mut self,
        state: &State,
        player: usize,
        deadline: Option<Instant>,
    ) -> SearchResult {
        self.maximin_by(state, player, deadline, evaluate)
    }

    /// [`Searcher::maximin`] under any evaluation `eval(result, player)` that
    /// gives [`WIN_VALUE`] to a won game and is no larger elsewhere (the search
    /// stops at a sure win). The race bot searches with
    /// [`evaluate_race`](super::race::evaluate_race).
    pub fn maximin_by(
        &mut self,
        state: &State,
        player: usize,
        deadline: Option<Instant>,
        eval: impl Fn(&TurnResult, usize) -> i32,
    ) -> SearchResult {
        read_lists(state, player, &mut self.rows, &mut self.row_choices);
        read_lists(
            state,
            1 - player,
            &mut self.columns,
            &mut self.column_choices,
        );
        let joint = |mine: Choice, theirs: Choice| joint_value(state, player, &eval, mine, theirs);
        let mut resolutions = 0u64;
        let idle = choose(&state.players[1 - player], &[Action::WAIT; 2]);
        self.order.clear();
        for (i, &row) in self.row_choices.iter().enumerate() {
            self.order.push((joint(row, idle), i));
        }
        resolutions += self.rows.len() as u64;
        // Best first; the stable sort keeps enumeration order among equals, so the
        // result does not depend on the sort's implementation.
        self.order
            .sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        self.killers.clear();
        self.tried.clear();
        self.tried.resize(self.columns.len(), 0);

        let mut best = (i32::MIN, self.order.first().map_or(0, |o| o.1));
        let mut rows_done = 0;
        let mut complete = true;
        for (n, &(_, r)) in self.order.iter().enumerate() {
            if best.0 == WIN_VALUE {
                rows_done = self.order.len();
                break;
            }
            if n > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                complete = false;
                break;
            }
            let stamp = n + 1;
            let row = self.row_choices[r];
            let mut min = (i32::MAX, 0usize);
            let mut pruned = false;
            // Killers first, then every other column (a killer is not tried twice).
            for &k in &self.killers {
                self.tried[k] = stamp;
            }
            let (tried, columns) = (&self.tried, &self.column_choices);
            let others = (0..columns.len()).filter(|&c| tried[c] != stamp);
            for c in self.killers.iter().copied().chain(others) {
                let v = joint(row, columns[c]);
                resolutions += 1;
                if v < min.0 {
                    min = (v, c);
                }
                if min.0 <= best.0 {
                    pruned = true;
                    break;
                }
            }
            // The column that set this row's minimum goes to the front.
            if min.0 != i32::MAX {
                if let Some(at) = self.killers.iter().position(|&k| k == min.1) {
                    self.killers.remove(at);
                }
                self.killers.insert(0, min.1);
                self.killers.truncate(KILLERS);
            }
            if !pruned {
                best = (min.0, r);
            }
            rows_done = n + 1;
        }
        SearchResult {
            value: best.0,
            best: self.rows.get(best.1).copied().unwrap_or([Action::WAIT; 2]),
            complete,
            rows_done,
            rows: self.rows.len(),
            columns: self.columns.len(),
            resolutions,
        }
    }
}

/// What the race search found: the maximin under the race evaluation and,
/// when every row can lose, the row that loses to the fewest replies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RaceResult {
    /// The maximin value under [`evaluate_race`](super::race::evaluate_race).
    pub value: i32,
    /// The fewest replies that win against a row, over the rows: 0 exactly when
    /// some row cannot lose (`value > -WIN_VALUE`).
    pub losses: u32,
    /// The chosen list: the maximin row, or the fewest-losses row when every
    /// row can lose.
    pub best: Actions,
    /// Whether both passes finished before the deadline.
    pub complete: bool,
}

impl Searcher {
    /// The race search: [`Searcher::maximin_by`] under
    /// [`evaluate_race`](super::race::evaluate_race) and then, when every list
    /// can lose the game to some reply (the maximin is a loss, and says nothing
    /// about which list to play), a second pass that finds the list with the
    /// fewest losing replies: an opponent that does not play the one reply
    /// that wins, and no baseline does, then rarely finds it.
    ///
    /// The second pass is exact: a row's count of losing replies is abandoned as
    /// soon as it reaches the best count so far, and the replies that beat
    /// earlier rows are tried first, which changes the work, not the count.
    pub fn race(&mut self, state: &State, player: usize, deadline: Option<Instant>) -> RaceResult {
        let eval = super::race::evaluate_race;
        let first = self.maximin_by(state, player, deadline, eval);
        if first.value > -WIN_VALUE {
            return RaceResult {
                value: first.value,
                losses: 0,
                best: first.best,
                complete: first.complete,
            };
        }
        // `maximin_by` left the lists read and the rows in order.
        let joint = |mine: Choice, theirs: Choice| joint_value(state, player, &eval, mine, theirs);
        let mut best = (u32::MAX, first.best);
        let mut complete = first.complete;
        self.killers.clear();
        for (n, &(_, r)) in self.order.iter().enumerate() {
            if n > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                complete = false;
                break;
            }
            let stamp = usize::MAX - n;
            let row = self.row_choices[r];
            for &k in &self.killers {
                self.tried[k] = stamp;
            }
            let (tried, columns) = (&self.tried, &self.column_choices);
            let others = (0..columns.len()).filter(|&c| tried[c] != stamp);
            let mut losses = 0u32;
            // Losing replies that are not killers yet (a killer carries this
            // row's stamp): they join the killers after the row.
            self.new_killers.clear();
            for c in self.killers.iter().copied().chain(others) {
                if joint(row, columns[c]) == -WIN_VALUE {
                    losses += 1;
                    if tried[c] != stamp {
                        self.new_killers.push(c);
                    }
                    if losses >= best.0 {
                        break;
                    }
                }
            }
            self.killers.extend_from_slice(&self.new_killers);
            if losses < best.0 {
                best = (losses, self.rows[r]);
            }
        }
        RaceResult {
            value: first.value,
            losses: best.0,
            best: best.1,
            complete,
        }
    }
}

/// Maximin for `player` by plain loops, `rows` its action lists and `cols`
/// the opponent's, no pruning: the brute force the pruned search is tested
/// against, and what a planted bug changes the lists of. Both lists must be
/// non-empty (a player always has a legal list).
pub fn plain_maximin(state: &State, player: usize, rows: &[Actions], cols: &[Actions]) -> i32 {
    let value = |&r: &Actions, &c: &Actions| {
        let a = if player == 0 { [r, c] } else { [c, r] };
        evaluate(&resolve_turn(state, &a), player)
    };
    let worst = |r: &Actions| {
        cols.iter()
            .map(|c| value(r, c))
            .min()
            .expect("a legal list")
    };
    rows.iter().map(worst).max().expect("a legal list")
}

/// Exhaustive maximin for `player` (no deadline): the value the differential
/// compares with the reference's.
pub fn maximin(state: &State, player: usize) -> SearchResult {
    Searcher::new().maximin(state, player, None)
}

#[cfg(test)]
mod tests;
