//! The duel generator: shaped states with mostly legal action lists aimed at
//! the opponent, and whole games between random players played forward by
//! the reference.

use super::*;
use crate::duel_states::{any_cell, generate_state, near};
use lockstep_core::duel::toward;

/// An action aimed at the opponent more often than not, built to be legal in
/// `slot` from the rules a generator needs (a usable code, a direction the code
/// takes, a first-slot move or dash that stays on the yard, not the skill of
/// slot 0 again). The generator keeps these few rules itself: asking the
/// reference's `is_legal` per draw, and retrying, cost more than core and
/// reference together spend on the line. A slip here only makes a list
/// illegal, which both sides judge; the generator-reach test holds the share
/// of legal lists.
pub(super) fn aimed_action(
    u: &mut Unstructured<'_>,
    player: &Player,
    other: Cell,
    slot: usize,
    taken: Option<u8>,
) -> arbitrary::Result<Action> {
    let me = player.pos;
    let mut usable = [0u8; 8];
    let mut n = 0;
    for code in 0..=DASH {
        let ready = code < 2 || player.waits[usize::from(code) - 2] == 0;
        if ready && (code < 2 || Some(code) != taken) {
            usable[n] = code;
            n += 1;
        }
    }
    let code = *u.choose(&usable[..n])?;
    if code == 0 {
        return Ok(Action::WAIT);
    }
    let dir = match u.int_in_range(0..=9u8)? {
        0..=4 => toward(me, other),
        5..=8 => *u.choose(&Dir::STRAIGHT)?,
        _ if code == DASH => *u.choose(&Dir::ALL)?,
        _ => *u.choose(&Dir::STRAIGHT)?,
    };
    let steps = match code {
        MOVE if slot == 0 => 1,
        DASH if slot == 0 => 2,
        _ => return Ok(Action::new(code, dir)),
    };
    let lands = |d: Dir| {
        let (dr, dc) = d.delta();
        model::inside((me.0 + steps * dr, me.1 + steps * dc))
    };
    if lands(dir) {
        return Ok(Action::new(code, dir));
    }
    // Off the yard: the first straight direction, from a drawn one, that lands
    // (on a 7x7 yard one always does, even two steps from a corner).
    let first = u.choose_index(4)?;
    let dir = (0..4)
        .map(|k| Dir::STRAIGHT[(first + k) % 4])
        .find(|&d| lands(d))
        .unwrap_or(dir);
    Ok(Action::new(code, dir))
}

/// Mostly legal action lists; about one in twenty anything at all.
pub(super) fn generate_actions(
    u: &mut Unstructured<'_>,
    state: &State,
    player: usize,
) -> arbitrary::Result<Actions> {
    let (me, other) = (&state.players[player], state.players[1 - player].pos);
    if u.ratio(1, 20)? {
        // Anything that parses: a wrong direction, a missing one, a waiting skill.
        let any = |u: &mut Unstructured<'_>| -> arbitrary::Result<Action> {
            let code = u.int_in_range(0..=DASH)?;
            let dir = if u.ratio(1, 8)? {
                None
            } else {
                Some(*u.choose(&Dir::ALL)?)
            };
            Ok(Action { code, dir })
        };
        return Ok([any(u)?, any(u)?]);
    }
    let first = aimed_action(u, me, other, 0, None)?;
    let second = aimed_action(u, me, other, 1, Some(first.code))?;
    Ok([first, second])
}

/// A game between random players from a random start, one line per turn, until
/// it ends or the bytes do. The reference plays the game forward, through its
/// incremental solve: a bug in the core under test must not steer which states
/// get generated, and the reference's run on the game comes out of the same
/// pass: a game of at most `LAST_TURN` lines always fits the fuel (checked at
/// compile time below).
pub(super) fn generate_game(
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<(Case, Option<ReferenceRun<Answer>>)> {
    let p1 = any_cell(u)?;
    let radius = u.int_in_range(1..=6)?;
    let mut p2 = near(u, p1, radius)?;
    if p2 == p1 {
        p2 = (if p1.0 > 1 { p1.0 - 1 } else { 2 }, p1.1);
    }
    let spring = any_cell(u)?;
    let mut state = State::initial(spring, p1, p2);
    let mut case = Vec::new();
    let mut solving = lockstep_reference::duel::Solving::new();
    // One unit a line and at most LAST_TURN lines: a game never runs out.
    const _: () = assert!(Duel::FUEL >= LAST_TURN as u64);
    let mut fuel = Fuel::new(Duel::FUEL);
    loop {
        let actions = [
            generate_actions(u, &state, 0)?,
            generate_actions(u, &state, 1)?,
        ];
        let turn = Turn { state, actions };
        let result = *solving
            .resolve(&turn, &mut fuel)
            .expect("a game fits the fuel");
        case.push(turn);
        if result.outcome != Outcome::Ongoing || u.is_empty() {
            return Ok((case, Some(Ok(solving.finish()))));
        }
        state = result.next;
    }
}

/// A case, and the reference's run on it when the generator played it (a
/// game; the other cases' lines are independent, so nothing is played).
pub(super) fn generate_case(
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<(Case, Option<ReferenceRun<Answer>>)> {
    if u.ratio(1, 5)? {
        return generate_game(u);
    }
    let lines = u.int_in_range(1..=4)?;
    let case = (0..lines)
        .map(|_| {
            let state = generate_state(u)?;
            let actions = [
                generate_actions(u, &state, 0)?,
                generate_actions(u, &state, 1)?,
            ];
            Ok(Turn { state, actions })
        })
        .collect::<arbitrary::Result<Case>>()?;
    Ok((case, None))
}

#[cfg(test)]
mod tests;
