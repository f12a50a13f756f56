//! The duel searches, exhaustively: depth-one maximin over every joint action,
//! no pruning, no ordering, plain loops over the reference engine; under the
//! plain evaluation (the `search1` bot) and under the race evaluation with the
//! count of losing replies (the default `search` bot).
//!
//! Each player's legal lists are found by writing down every action a bot could
//! write (codes 0..=7, with no direction or any of the eight) and keeping every
//! pair the reference's own legality ([`duel::is_legal`]) accepts; every joint
//! choice is resolved by the reference resolver ([`duel::resolve_turn`]). The only
//! thing shared with core's search is the position evaluation
//! ([`lockstep_core::duel::evaluate`], and
//! [`lockstep_core::duel::race::evaluate_race`]): it is what is being searched
//! over, not how, so sharing it lets the differential check the search and the
//! engine.
//! One unit of fuel per joint action resolved.

use crate::duel;
use crate::{Fuel, Naive, OutOfFuel};
use lockstep_core::duel::race::evaluate_race;
use lockstep_core::duel::{evaluate, Action, Actions, Dir, Outcome, State, TurnResult, Winner};
use lockstep_core::duel_search::Values;
use lockstep_core::Run;

/// Every action list `player` may legally play in `state`, by brute force.
pub fn legal_lists(state: &State, player: usize) -> Vec<Actions> {
    let mut written = Vec::new();
    for code in 0..=7u8 {
        written.push(Action { code, dir: None });
        for d in Dir::ALL {
            written.push(Action::new(code, d));
        }
    }
    let mut lists = Vec::new();
    for &first in &written {
        for &second in &written {
            if duel::is_legal(state, player, &[first, second]) {
                lists.push([first, second]);
            }
        }
    }
    lists
}

/// The turn resolved by the reference engine with `player` playing `row` and
/// the opponent `column`.
fn joint(state: &State, player: usize, row: Actions, column: Actions) -> TurnResult {
    let mut actions = [column, column];
    actions[player] = row;
    duel::resolve_turn(state, &actions, &mut Vec::new())
}

/// The maximin value for `player` and one list that achieves it (the first in
/// enumeration order), plus each row's minimum, for reports.
#[derive(Debug, Clone)]
pub struct Maximin {
    pub value: i32,
    pub best: Actions,
    pub rows: Vec<(Actions, i32)>,
}

/// Exhaustive maximin for `player`.
pub fn maximin(state: &State, player: usize, fuel: &mut Fuel) -> Result<Maximin, OutOfFuel> {
    let mine = legal_lists(state, player);
    let theirs = legal_lists(state, 1 - player);
    let mut rows = Vec::new();
    for &row in &mine {
        let mut worst = i32::MAX;
        for &column in &theirs {
            fuel.burn(1)?;
            worst = worst.min(evaluate(&joint(state, player, row, column), player));
        }
        rows.push((row, worst));
    }
    let mut value = i32::MIN;
    let mut best = [Action::WAIT; 2];
    for &(row, worst) in &rows {
        if worst > value {
            value = worst;
            best = row;
        }
    }
    Ok(Maximin { value, best, rows })
}

/// The race search's answer for one player: the maximin value under the race
/// evaluation, and the fewest losing replies any of the player's lists has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Race {
    pub value: i32,
    pub losses: u32,
}

/// Exhaustive race search for `player`: for every row, its worst race value
/// and how many columns lose the game for it; the value is the best worst
/// value, the losses the fewest over all rows. One unit of fuel per joint
/// action.
pub fn race(state: &State, player: usize, fuel: &mut Fuel) -> Result<Race, OutOfFuel> {
    let mine = legal_lists(state, player);
    let theirs = legal_lists(state, 1 - player);
    let mut value = i32::MIN;
    let mut losses = u32::MAX;
    for &row in &mine {
        let mut worst = i32::MAX;
        let mut lost = 0;
        for &column in &theirs {
            fuel.burn(1)?;
            let result = joint(state, player, row, column);
            worst = worst.min(evaluate_race(&result, player));
            // A loss is read off the reference engine's own result, not off
            // the shared evaluation's value for it.
            let opponent = if player == 0 { Winner::P2 } else { Winner::P1 };
            if matches!(result.outcome, Outcome::Ended(w, _) if w == opponent) {
                lost += 1;
            }
        }
        value = value.max(worst);
        losses = losses.min(lost);
    }
    Ok(Race { value, losses })
}

/// The four exhaustive searches (two per player), in the answer's order from
/// docs/guide/src/rules/duel_search.md, written out here rather than packed by core's
/// `values`: a field order core got wrong must show as a disagreement. No
/// trace: the digest is 0.
fn solve(state: &State, fuel: &mut Fuel) -> Result<Run<Values>, OutOfFuel> {
    let plain = [
        maximin(state, 0, fuel)?.value,
        maximin(state, 1, fuel)?.value,
    ];
    let race = [race(state, 0, fuel)?, race(state, 1, fuel)?];
    Ok(Run {
        answer: [
            plain[0],
            plain[1],
            race[0].value,
            race[1].value,
            race[0].losses as i32,
            race[1].losses as i32,
        ],
        digest: 0,
    })
}

impl Naive for State {
    fn solve_naively(&self, fuel: &mut Fuel) -> Result<Run<Values>, OutOfFuel> {
        solve(self, fuel)
    }
}
