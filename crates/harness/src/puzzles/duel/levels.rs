//! The duel's levels: `duel step` inputs small in every dimension the rules
//! distinguish, so that the first levels already attack, guard, push, kill,
//! win on blessing and reach turn 60.
//!
//! A level is a list of state *templates* (below), every placement of the
//! two players at one king's-move distance (1: touching, 2: one cell
//! between), and every pair of action lists from a set of lists. A case is
//! one state and one list of player 1, with one line for each list of
//! player 2:
//!
//! | size | distance | templates | lists a player (lines a case) |
//! |---:|---:|---|---|
//! | 1 | 1 | fresh | 33: every single action (wait, move, and each skill in each of its directions), then a wait; and 144: every skill twice, each pair of its directions |
//! | 2 | 1 | 2 hp each, turn 60, a blessing of 9 on the spring, skills cooling down, and the three pairs of the first three | the 33 |
//! | 3 | 2 | all eight | the 33 |
//! | 4 | 1 | all but fresh and cooling | 33: a wait, then every single action |
//! | 5 | 1 | fresh | 1,089: every single action, then every single action |
//!
//! Why a case holds a line for each of player 2's lists rather than one
//! line: a line is quick to resolve, and what verify does around a case
//! (making it, the driver, comparing the answers, the certificate's
//! record) costs the same whatever its lines; with a line a case it cost
//! as much as core and reference (the rule page). verify keeps the first
//! line of its first failing case that fails alone
//! ([`crate::puzzle::Verifiable::parts`]): a finding is still one line.
//!
//! The templates: *fresh* (turn 1, 10 hp, no blessing, every skill ready,
//! the spring at the centre); *2 hp* (both players at 2 hp: any attack that
//! connects decides the game); *turn 60* (the last turn, player 1 one
//! blessing ahead); *blessed* (player 1 on the spring with a blessing of 9,
//! one short of its win); *cooling* (every skill of both players waiting one
//! more turn, so that each skill in a list makes it illegal); and where two
//! of the rules' constants meet, each pair of the first three (*turn 60
//! blessed*: the last turn with player 1 on the spring at 9, so the
//! blessing wins, not the turns; *2 hp on turn 60*: a loss on the last
//! turn; *2 hp blessed*: a loss in a turn that ends with a blessing due).
//! A list may be illegal in other ways too: a first move or dash off the
//! yard. The lists of size 1 also use every skill twice, each pair of its
//! directions (illegal, whichever directions): player 1's list is one of
//! the 177, and a case of one of the 33 has a line for each of player 2's
//! 177, a case of a skill twice a line for each of the 33. Size 4 plays
//! its single actions in the second slot, where a loss ends the turn
//! before the blessing is counted. Levels past 5 are empty.
//!
//! No symmetry is used (see duel search's levels).

use crate::duel_states::placements;
use crate::enumerate::{Digits, Levels};
use lockstep_core::duel::{
    Action, Actions, Case, Cell, Dir, State, Turn, DASH, MOVE, SIZE, THRUST,
};

pub const LEVELS: Levels<Case> = Levels {
    size: "players 1 or 2 apart, state templates (fresh, 2 hp, turn 60, blessing 9, cooling, and the pairs of the middle three) and every pair of action lists (size 1 also every skill twice), a case a list of player 1 with a line for each list of player 2 (see the rule page)",
    ci: 4,
    night: 5,
    last: 5,
    span,
    case,
    count,
    images: crate::enumerate::only_itself,
    least: crate::enumerate::alone,
    may_pick: crate::enumerate::any_index,
    next,
};

/// The single actions: wait, a move each straight way, each of the five
/// straight skills (thrust, sweep, charge, guard, break) each straight way,
/// and a dash each of its eight ways.
const SINGLES: u64 = 1 + 4 + 5 * 4 + 8;

/// The single action `i` (`0..SINGLES`), in the order above.
fn single(i: u64) -> Action {
    SINGLE[i as usize]
}

/// The single actions, made once: a case makes a line for each of them.
const SINGLE: [Action; SINGLES as usize] = {
    let mut out = [Action::WAIT; SINGLES as usize];
    let mut i = 1;
    while i < SINGLES as usize {
        out[i] = match i {
            1..=4 => Action::new(MOVE, Dir::STRAIGHT[i - 1]),
            5..=24 => Action::new(THRUST + ((i - 5) / 4) as u8, Dir::STRAIGHT[(i - 5) % 4]),
            _ => Action::new(DASH, Dir::ALL[i - 25]),
        };
        i += 1;
    }
    out
};

/// A state template: what differs from a fresh turn 1.
#[derive(Clone, Copy)]
enum Template {
    Fresh,
    TwoHp,
    Turn60,
    Blessed,
    Cooling,
    Turn60Blessed,
    TwoHpTurn60,
    TwoHpBlessed,
}

const ALL: [Template; 8] = [
    Template::Fresh,
    Template::TwoHp,
    Template::Turn60,
    Template::Blessed,
    Template::Cooling,
    Template::Turn60Blessed,
    Template::TwoHpTurn60,
    Template::TwoHpBlessed,
];

/// The lists of a skill used twice: each of the five straight skills with
/// each pair of straight directions, then a dash with each pair of its
/// eight.
const TWICE: u64 = 5 * 4 * 4 + 8 * 8;

/// The list `i` (`0..TWICE`) of a skill used twice.
fn twice(i: u64) -> Actions {
    match i {
        0..80 => {
            let code = THRUST + (i / 16) as u8;
            let dir = |d: u64| Dir::STRAIGHT[d as usize];
            [
                Action::new(code, dir(i % 4)),
                Action::new(code, dir(i / 4 % 4)),
            ]
        }
        _ => {
            let j = i - 80;
            let dir = |d: u64| Dir::ALL[d as usize];
            [Action::new(DASH, dir(j % 8)), Action::new(DASH, dir(j / 8))]
        }
    }
}

/// The lists of a level: a single action then a wait, those and a skill
/// twice, a wait then a single action, or every single action then every
/// single action.
#[derive(Clone, Copy, PartialEq)]
enum Lists {
    Singles,
    WithTwice,
    Second,
    Pairs,
}

/// A level's shape: the players' distance, its templates, and its lists.
fn shape(size: u32) -> Option<(u32, &'static [Template], Lists)> {
    match size {
        1 => Some((1, &ALL[..1], Lists::WithTwice)),
        2 => Some((1, &ALL[1..], Lists::Singles)),
        3 => Some((2, &ALL, Lists::Singles)),
        4 => Some((1, &SECOND_SLOT, Lists::Second)),
        5 => Some((1, &ALL[..1], Lists::Pairs)),
        _ => None,
    }
}

/// The templates of size 4, where what the second slot decides meets the
/// game's constants.
const SECOND_SLOT: [Template; 6] = [
    Template::TwoHp,
    Template::Turn60,
    Template::Blessed,
    Template::Turn60Blessed,
    Template::TwoHpTurn60,
    Template::TwoHpBlessed,
];

/// The lists a player may be given at a level.
fn lists(kind: Lists) -> u64 {
    match kind {
        Lists::Singles | Lists::Second => SINGLES,
        Lists::WithTwice => SINGLES + TWICE,
        Lists::Pairs => SINGLES * SINGLES,
    }
}

/// List `i` of a level's lists: with pairs, its first action the faster
/// digit; the lists of a skill twice after the singles.
fn list(kind: Lists, i: u64) -> Actions {
    match kind {
        Lists::Pairs => [single(i % SINGLES), single(i / SINGLES)],
        Lists::Second => [single(0), single(i)],
        _ if i >= SINGLES => twice(i - SINGLES),
        _ => [single(i), single(0)],
    }
}

const CELLS: u64 = (SIZE as u64) * (SIZE as u64);

fn span(size: u32) -> u64 {
    shape(size).map_or(0, |(_, templates, kind)| {
        templates.len() as u64 * CELLS * CELLS * lists(kind)
    })
}

/// The state of `template` with the players on `p1` and `p2`.
fn state_of(template: Template, p1: Cell, p2: Cell) -> State {
    let mut state = State::initial((4, 4), p1, p2);
    match template {
        Template::Fresh => {}
        Template::TwoHp => state.players.iter_mut().for_each(|p| p.hp = 2),
        Template::Turn60 => {
            state.turn = 60;
            state.players[0].blessing = 1;
        }
        Template::Blessed => {
            state.spring = p1;
            state.players[0].blessing = 9;
        }
        Template::Cooling => state.players.iter_mut().for_each(|p| p.waits = [1; 6]),
        Template::Turn60Blessed => {
            state.turn = 60;
            state.spring = p1;
            state.players[0].blessing = 9;
        }
        Template::TwoHpTurn60 => {
            state.players.iter_mut().for_each(|p| p.hp = 2);
            state.turn = 60;
            state.players[0].blessing = 1;
        }
        Template::TwoHpBlessed => {
            state.players.iter_mut().for_each(|p| p.hp = 2);
            state.spring = p1;
            state.players[0].blessing = 9;
        }
    }
    state
}

fn case(size: u32, index: u64) -> Option<Case> {
    let (distance, templates, kind) = shape(size)?;
    let mut digits = Digits(index);
    let template = templates[digits.take(templates.len() as u64) as usize];
    let (d1, d2) = (digits.take(CELLS), digits.take(CELLS));
    // Most placements are at another distance (seven in eight at distance
    // 1): refused before the lists are read ([`next`] skips them).
    if apart(d1, d2) != distance {
        return None;
    }
    let (p1, p2) = (cell(d1), cell(d2));
    let first = digits.take(lists(kind));
    let turn = Turn {
        state: state_of(template, p1, p2),
        actions: [list(kind, first), list(kind, 0)],
    };
    // Player 2's lists: all of them, or the singles against a skill twice.
    let theirs = match kind == Lists::WithTwice && first >= SINGLES {
        true => SINGLES,
        false => lists(kind),
    };
    // Every line the same but player 2's list: copies of one line, then
    // each list written in (what verify does per line, kept small).
    let mut lines = vec![turn; theirs as usize];
    for (i, line) in lines.iter_mut().enumerate().skip(1) {
        line.actions[1] = list(kind, i as u64);
    }
    Some(lines)
}

/// The first index at or after `index` whose players stand at the level's
/// distance: the template is the fastest digit and player 1's cell the
/// next, so a run of refused placements (seven in eight at distance 1)
/// is skipped at once rather than decoded index by index.
fn next(size: u32, index: u64, _symmetry: bool) -> u64 {
    let Some((distance, templates, _)) = shape(size) else {
        return index;
    };
    let per_cell = templates.len() as u64;
    let mut digits = Digits(index);
    digits.take(per_cell);
    let (p1, p2) = (digits.take(CELLS), digits.take(CELLS));
    if apart(p1, p2) == distance {
        return index;
    }
    // Player 1's first cell of this placement of player 2, template 0.
    let first = index - index % per_cell - p1 * per_cell;
    let to = (p1 + 1..CELLS)
        .find(|&q| apart(q, p2) == distance)
        .unwrap_or(CELLS);
    first + to * per_cell
}

/// The king's-move distance between cells `a` and `b` (row-major digits).
fn apart(a: u64, b: u64) -> u32 {
    let (a, b) = (cell(a), cell(b));
    u32::from((a.0 - b.0).unsigned_abs().max((a.1 - b.1).unsigned_abs()))
}

/// The cell of a digit `0..49`, row-major.
fn cell(i: u64) -> Cell {
    ((i / 7) as i8 + 1, (i % 7) as i8 + 1)
}

/// Templates times placements (duel search's closed form for the players
/// `distance` apart) times player 1's lists.
fn count(size: u32) -> u64 {
    shape(size).map_or(0, |(distance, templates, kind)| {
        templates.len() as u64 * placements(distance) * lists(kind)
    })
}

#[cfg(test)]
mod tests;
