//! Duel search's levels: states of a turn, two players `d` cells apart in
//! king's-move distance (player 1 on any cell), under a *template* for the
//! rest of the state:
//!
//! | size | distance | templates |
//! |---:|---:|---|
//! | 1 to 6 | the size | fresh |
//! | 7 | 1 | blessing 9, blessing 8, turn 55, turn 60 |
//! | 8 | 2 | the same four |
//! | 9 | 1 | 2 hp, dash ready |
//! | 10 | 2 | the same two |
//!
//! *Fresh*: turn 1, both players at 10 hp, no blessing, every skill waiting
//! its whole cooldown (so each may wait or move: 25 action lists a player),
//! the spring at the centre (4, 4). The others differ from fresh in one
//! thing each: *blessing 9* (player 1 on the spring with a blessing of 9,
//! one short of its win: where sure wins, sure losses and the race
//! search's fewest-losses pass occur); *blessing 8* (player 2
//! on the spring with 8); *turn 55* (inside the last ten turns, player 1 a
//! blessing ahead); *turn 60* (the last turn, player 2 a blessing ahead);
//! *2 hp* (both at 2 hp with thrust ready: a thrust that hits decides);
//! *dash ready* (the dash ready for both, the only skill that is). With
//! every skill ready a fresh state's matrices run the reference out of
//! fuel, so the templates keep the other skills waiting; whatever else a
//! state may hold (other hp, cooldowns of one skill) is left to `fuzz`.
//! Levels past 10 are empty. The matrices of sizes 9 and 10 are about 65 x
//! 65 (2 hp) and 100 x 100 (dash) lists where the others' are 25 x 25; a
//! state costs about five times as much (7.7 ms of CPU against 1.4, release
//! build). Size 9 is the CI scope's last, for the dashes only it plays
//! (624 states, 4.8 s of CPU); size 10 is the night's.
//!
//! No symmetry is used: the answer pairs player 1's values with player
//! 2's, and whether the engine and both evaluations are the same under the
//! yard's reflections is what a differential should check, not assume.

use crate::duel_states::placements;
use crate::enumerate::{only_itself, Digits, Levels};
use lockstep_core::duel::{Cell, State, COOLDOWN, DASH, SIZE, THRUST};

pub const LEVELS: Levels<State> = Levels {
    size: "king's-move distance between two players; 1 to 6 fresh (turn 1, skills waiting); 7 and 8 at 1 and 2 apart: blessing 9, blessing 8, turn 55, turn 60; 9 and 10 at 1 and 2 apart: 2 hp, thrust ready; dash ready",
    ci: 9,
    night: 10,
    last: 10,
    span,
    case: state,
    count,
    images: only_itself,
    least: crate::enumerate::alone,
    may_pick: crate::enumerate::any_index,
    next: crate::enumerate::every_index,
};

/// What a state holds besides the players' cells (see the module's doc).
#[derive(Clone, Copy)]
enum Template {
    Fresh,
    Blessing9,
    Blessing8,
    Turn55,
    Turn60,
    TwoHp,
    DashReady,
}

const READY: [Template; 2] = [Template::TwoHp, Template::DashReady];

const LATE: [Template; 4] = [
    Template::Blessing9,
    Template::Blessing8,
    Template::Turn55,
    Template::Turn60,
];

/// A level's distance between the players and its templates.
fn shape(size: u32) -> Option<(u32, &'static [Template])> {
    match size {
        1..=6 => Some((size, &[Template::Fresh])),
        7 => Some((1, &LATE)),
        8 => Some((2, &LATE)),
        9 => Some((1, &READY)),
        10 => Some((2, &READY)),
        _ => None,
    }
}

const CELLS: u64 = (SIZE as u64) * (SIZE as u64);

fn span(size: u32) -> u64 {
    shape(size).map_or(0, |(_, templates)| templates.len() as u64 * CELLS * CELLS)
}

/// The state of `template` with the players on `p1` and `p2`.
fn state_of(template: Template, p1: Cell, p2: Cell) -> State {
    let mut state = State::initial((4, 4), p1, p2);
    for player in &mut state.players {
        player.waits.copy_from_slice(&COOLDOWN[2..]);
    }
    match template {
        Template::Fresh => {}
        Template::Blessing9 => {
            state.spring = p1;
            state.players[0].blessing = 9;
        }
        Template::Blessing8 => {
            state.spring = p2;
            state.players[1].blessing = 8;
        }
        Template::Turn55 => {
            state.turn = 55;
            state.players[0].blessing = 1;
        }
        Template::Turn60 => {
            state.turn = 60;
            state.players[1].blessing = 1;
        }
        Template::TwoHp => {
            for player in &mut state.players {
                player.hp = 2;
                player.waits[usize::from(THRUST - 2)] = 0;
            }
        }
        Template::DashReady => {
            for player in &mut state.players {
                player.waits[usize::from(DASH - 2)] = 0;
            }
        }
    }
    state
}

/// The state at `index` of level `size`.
fn state(size: u32, index: u64) -> Option<State> {
    let (distance, templates) = shape(size)?;
    let mut digits = Digits(index);
    let template = templates[digits.take(templates.len() as u64) as usize];
    let cell = |i: u64| -> Cell { ((i / 7) as i8 + 1, (i % 7) as i8 + 1) };
    let (p1, p2) = (cell(digits.take(CELLS)), cell(digits.take(CELLS)));
    let apart = (p1.0 - p2.0)
        .unsigned_abs()
        .max((p1.1 - p2.1).unsigned_abs());
    (u32::from(apart) == distance).then(|| state_of(template, p1, p2))
}

/// Templates times placements.
fn count(size: u32) -> u64 {
    shape(size).map_or(0, |(distance, templates)| {
        templates.len() as u64 * placements(distance)
    })
}
