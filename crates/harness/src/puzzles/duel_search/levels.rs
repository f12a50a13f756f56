//! Duel search's levels: size `d` is every state of turn 1 with both
//! players at 10 hp, no blessing, every skill waiting its whole cooldown
//! (so each may wait or move: 25 action lists a player) and the spring at
//! the centre (4, 4), the two players `d` cells apart in king's-move
//! distance, player 1 on any cell: every way two such players can face
//! each other, nearest first. Size 6 ends them all (2,352 states). With
//! skills ready a fresh state's matrices run the reference out of fuel, so
//! the rest of a state (hp, blessings, skills, turns) is left to `fuzz`.
//!
//! No symmetry is used: the answer pairs player 1's values with player
//! 2's, and whether the engine and both evaluations are the same under the
//! yard's reflections is what a differential should check, not assume.

use crate::enumerate::{only_itself, Digits, Levels};
use lockstep_core::duel::{Cell, State, COOLDOWN, SIZE};

pub const LEVELS: Levels<State> = Levels {
    size: "king's-move distance between two players of turn 1, skills all waiting, spring at the centre",
    ci: 6,
    night: 6,
    span,
    case: state,
    count,
    images: only_itself,
    least: crate::enumerate::alone,
};

const CELLS: u64 = (SIZE as u64) * (SIZE as u64);

pub(crate) fn span(_: u32) -> u64 {
    CELLS * CELLS
}

/// The state at `index` of level `d` (also the duel's levels' states).
pub(crate) fn state(d: u32, index: u64) -> Option<State> {
    let mut digits = Digits(index);
    let cell = |i: u64| -> Cell { ((i / 7) as i8 + 1, (i % 7) as i8 + 1) };
    let (p1, p2) = (cell(digits.take(CELLS)), cell(digits.take(CELLS)));
    let apart = (p1.0 - p2.0)
        .unsigned_abs()
        .max((p1.1 - p2.1).unsigned_abs());
    (u32::from(apart) == d).then(|| {
        let mut state = State::initial((4, 4), p1, p2);
        for player in &mut state.players {
            player.waits.copy_from_slice(&COOLDOWN[2..]);
        }
        state
    })
}

/// For each offset at distance `d`, the cells player 1 may stand on with
/// player 2 that far: (7 - |dr|) (7 - |dc|).
pub(crate) fn count(d: u32) -> u64 {
    let d = i64::from(d);
    let side = i64::from(SIZE);
    let mut total = 0;
    for dr in -d..=d {
        for dc in -d..=d {
            if dr.abs().max(dc.abs()) == d && d > 0 {
                total += ((side - dr.abs()).max(0) * (side - dc.abs()).max(0)) as u64;
            }
        }
    }
    total
}
