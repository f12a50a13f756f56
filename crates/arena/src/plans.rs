//! The baseline bots' plans: a few lines each over the model, no search.
//!
//! `spring` walks to the spring and holds it; `chase` closes in and strikes.
//! They are the simple opponents every search bot is measured against (the
//! ladder, the tests' in-process matches); each writes a legal list by itself
//! (a test holds them to it over thousands of states), since the bot's
//! fallback to a wait pair would hide a plan's mistake.

use lockstep_core::duel::toward;
use lockstep_core::duel::{
    inside, Action, Actions, Cell, Dir, State, BREAK, CHARGE, DASH, GUARD, MOVE, SWEEP, THRUST,
};

/// The straight direction `d` and distance `k` with `to == from + k * d`, if
/// `to` is on one of `from`'s four lines.
fn in_line(from: Cell, to: Cell) -> Option<(Dir, i8)> {
    let (dr, dc) = (to.0 - from.0, to.1 - from.1);
    if (dr == 0) == (dc == 0) {
        return None;
    }
    Some((toward(from, to), dr.abs() + dc.abs()))
}

fn step(from: Cell, d: Dir) -> Cell {
    let (dr, dc) = d.delta();
    (from.0 + dr, from.1 + dc)
}

/// The `spring` plan: walk to the spring (one cell a slot) and stay; there,
/// thrust at an opponent in the thrust's reach, otherwise guard facing it.
/// Skills on cooldown are skipped (a wait instead), so every list is legal.
pub fn spring_plan(state: &State, me: usize) -> Actions {
    let player = &state.players[me];
    let other = state.players[1 - me].pos;
    let mut used = [false; 8];
    let ready = |code: u8, used: &[bool; 8]| {
        let skill = usize::from(code) - 2;
        player.waits[skill] == 0 && !used[usize::from(code)]
    };
    let mut at = player.pos;
    let mut out = [Action::WAIT; 2];
    for slot in &mut out {
        *slot = if at != state.spring {
            let d = toward(at, state.spring);
            if step(at, d) != other {
                at = step(at, d);
            }
            Action::new(MOVE, d)
        } else if let Some((d, _)) = in_line(at, other).filter(|&(_, k)| k <= 2) {
            if ready(THRUST, &used) {
                used[usize::from(THRUST)] = true;
                Action::new(THRUST, d)
            } else if ready(GUARD, &used) {
                used[usize::from(GUARD)] = true;
                Action::new(GUARD, d)
            } else {
                Action::WAIT
            }
        } else if ready(GUARD, &used) {
            used[usize::from(GUARD)] = true;
            Action::new(GUARD, toward(at, other))
        } else {
            Action::WAIT
        };
    }
    out
}

/// The `chase` plan: close in on the opponent and strike it with the
/// strongest skill whose area reaches it (charge, then break or thrust, then
/// sweep), a slot at a time; dash when it is three or more cells away.
pub fn chase_plan(state: &State, me: usize) -> Actions {
    let player = &state.players[me];
    let other = state.players[1 - me].pos;
    let mut used = [false; 8];
    let mut at = player.pos;
    let mut out = [Action::WAIT; 2];
    for (n, slot) in out.iter_mut().enumerate() {
        let ready = |code: u8, used: &[bool; 8]| {
            player.waits[usize::from(code) - 2] == 0 && !used[usize::from(code)]
        };
        let line = in_line(at, other);
        let (dr, dc) = (other.0 - at.0, other.1 - at.1);
        let adjacent_diagonal = dr.abs() == 1 && dc.abs() == 1;
        let strike = match line {
            Some((d, 1)) => [CHARGE, BREAK, THRUST, SWEEP]
                .into_iter()
                .find(|&c| ready(c, &used))
                .map(|c| (c, d)),
            Some((d, 2)) => [CHARGE, THRUST]
                .into_iter()
                .find(|&c| ready(c, &used))
                .map(|c| (c, d)),
            Some((d, 3)) => [CHARGE]
                .into_iter()
                .find(|&c| ready(c, &used))
                .map(|c| (c, d)),
            _ if adjacent_diagonal && ready(SWEEP, &used) => Some((SWEEP, toward(at, other))),
            _ => None,
        };
        *slot = if let Some((code, d)) = strike {
            used[usize::from(code)] = true;
            Action::new(code, d)
        } else {
            let d = toward(at, other);
            let dist = dr.abs() + dc.abs();
            let far = step(step(at, d), d);
            if dist >= 3 && ready(DASH, &used) && inside(far) && (n == 1 || far != other) {
                used[usize::from(DASH)] = true;
                at = far;
                Action::new(DASH, d)
            } else {
                if step(at, d) != other {
                    at = step(at, d);
                }
                Action::new(MOVE, d)
            }
        };
    }
    out
}
