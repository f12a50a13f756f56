//! The duel's levels: size `d` is every state of duel search's level `d`
//! (turn 1, both players at 10 hp, every skill waiting its whole cooldown,
//! the spring at the centre, the players `d` cells apart) with every pair
//! of action lists each player may play there: two actions, each a wait or
//! a move up, right, down or left (25 lists a player, 625 pairs a state).
//! One `duel step` line an input. Size 6 ends the states (1,470,000 lines).

use super::{duel_search, Digits, Levels};
use lockstep_core::duel::{Action, Actions, Case, Dir, Turn, MOVE};

pub const LEVELS: Levels<Case> = Levels {
    size:
        "duel search's level (players d apart, skills waiting) with every pair of wait/move lists",
    ci: 1,
    night: 6,
    span,
    case,
    count,
    images: super::only_itself,
    least: super::alone,
};

const CHOICES: [Action; 5] = [
    Action::WAIT,
    Action {
        code: MOVE,
        dir: Some(Dir::U),
    },
    Action {
        code: MOVE,
        dir: Some(Dir::R),
    },
    Action {
        code: MOVE,
        dir: Some(Dir::D),
    },
    Action {
        code: MOVE,
        dir: Some(Dir::L),
    },
];

/// Lists a player may play: CHOICES squared.
const LISTS: u64 = 25;

fn span(d: u32) -> u64 {
    duel_search::span(d) * LISTS * LISTS
}

fn case(d: u32, index: u64) -> Option<Case> {
    let mut digits = Digits(index);
    let lists: [Actions; 2] = [0; 2].map(|_| [0; 2].map(|_| digits.pick(&CHOICES)));
    let state = duel_search::state(d, digits.0)?;
    Some(vec![Turn {
        state,
        actions: lists,
    }])
}

fn count(d: u32) -> u64 {
    duel_search::count(d) * LISTS * LISTS
}
