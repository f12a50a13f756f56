//! Cherry Blossom Duel: the model, legality of an action list, the `duel step` text
//! format, and the per-phase event vocabulary both resolvers report in.
//!
//! Two players on a 7x7 yard each choose two actions a turn; the first actions are
//! resolved together in six phases, then the second ones. The rules, and every
//! point the statement leaves open, are in `docs/guide/src/rules/duel.md`. This module
//! holds what the game *is*, so that the fast resolver, the naive one
//! (`lockstep-reference`), the referee and the bots all speak the same types. The
//! fast resolver ([`resolve_turn`], [`resolve_traced`]) and the enumeration of
//! legal action lists ([`legal_lists`]) live in the private module `fast`.
//!
//! Files: this one holds the model and legality; `step.rs` the `duel step`
//! text format, `events.rs` the event vocabulary, `evaluate.rs` the plain
//! evaluation (`race.rs` the race one), all re-exported here; `search.rs`
//! the bots' depth-one maximin, `mixed.rs` the mixed bot's equilibrium of a
//! turn (and the best reply to a mixed strategy).
//!
//! A case of the harness is a list of `duel step` lines (a state and both action
//! lists each); the answer is one line per case: the next state and the result.

mod evaluate;
mod events;
mod fast;
pub mod mixed;
pub mod race;
mod result;
pub mod search;
mod step;

pub use fast::{
    legal_lists, line_marker, prepare, resolve_traced, resolve_turn, solve_with, Recorder, Sink,
};

use crate::input::{parse_int, InputError};
use std::fmt;

/// Rows and columns run 1..=SIZE.
pub const SIZE: i8 = 7;
/// The last turn; after it the game is decided by blessing, then hp.
pub const LAST_TURN: u8 = 60;
pub const START_HP: i8 = 10;
/// Blessing that wins the game.
pub const WINNING_BLESSING: u8 = 10;
/// The referee's total time per player for READY and every TURN, in milliseconds.
pub const TIME_BUDGET_MS: u64 = 1000;
/// The longest answer line a bot may send, newline included.
pub const MAX_ANSWER_BYTES: usize = 128;

/// A cell as (row, column), 1-based. Signed: a pushed-out player stands on the cell
/// just outside the yard (row or column 0 or 8).
pub type Cell = (i8, i8);

/// The straight direction that best points from `from` toward `to` (rows
/// first on a tie): how the built-in bots' plans and the duel generator's
/// actions aim at a cell.
pub fn toward(from: Cell, to: Cell) -> Dir {
    let (dr, dc) = (to.0 - from.0, to.1 - from.1);
    if dr.abs() >= dc.abs() {
        if dr < 0 {
            Dir::U
        } else {
            Dir::D
        }
    } else if dc < 0 {
        Dir::L
    } else {
        Dir::R
    }
}

#[inline]
pub fn inside((r, c): Cell) -> bool {
    (1..=SIZE).contains(&r) && (1..=SIZE).contains(&c)
}

/// A direction; the first four are the ones every directed action takes, the
/// diagonals are dash only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    U,
    R,
    D,
    L,
    UR,
    DR,
    DL,
    UL,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::U,
        Dir::R,
        Dir::D,
        Dir::L,
        Dir::UR,
        Dir::DR,
        Dir::DL,
        Dir::UL,
    ];
    pub const STRAIGHT: [Dir; 4] = [Dir::U, Dir::R, Dir::D, Dir::L];

    /// (row change, column change) of one step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::U => (-1, 0),
            Dir::R => (0, 1),
            Dir::D => (1, 0),
            Dir::L => (0, -1),
            Dir::UR => (-1, 1),
            Dir::DR => (1, 1),
            Dir::DL => (1, -1),
            Dir::UL => (-1, -1),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::U => "U",
            Dir::R => "R",
            Dir::D => "D",
            Dir::L => "L",
            Dir::UR => "UR",
            Dir::DR => "DR",
            Dir::DL => "DL",
            Dir::UL => "UL",
        }
    }

    pub fn from_name(name: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == name)
    }

    pub fn is_straight(self) -> bool {
        (self as u8) < 4
    }
}

/// Action codes as the protocol writes them.
pub const WAIT: u8 = 0;
pub const MOVE: u8 = 1;
pub const THRUST: u8 = 2;
pub const SWEEP: u8 = 3;
pub const CHARGE: u8 = 4;
pub const GUARD: u8 = 5;
pub const BREAK: u8 = 6;
pub const DASH: u8 = 7;

/// Cooldown of each code (0 for wait and move, which are not skills).
pub const COOLDOWN: [u8; 8] = [0, 0, 1, 2, 2, 2, 1, 2];

pub fn action_name(code: u8) -> &'static str {
    match code {
        WAIT => "wait",
        MOVE => "move",
        THRUST => "thrust",
        SWEEP => "sweep",
        CHARGE => "charge",
        GUARD => "guard",
        BREAK => "break",
        DASH => "dash",
        _ => "?",
    }
}

/// One action as a bot writes it: a code 0..=7 and a direction if one was given.
/// Any combination can be *written* (`0 U`, `1 UR`, `2`); whether it is legal is a
/// rule question ([`check_legal`]), not a format one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action {
    pub code: u8,
    pub dir: Option<Dir>,
}

impl Action {
    pub const WAIT: Action = Action {
        code: WAIT,
        dir: None,
    };

    pub const fn new(code: u8, dir: Dir) -> Action {
        Action {
            code,
            dir: Some(dir),
        }
    }

    /// The index of a skill (codes 2..=7) in the six waits.
    #[inline]
    pub fn skill(self) -> Option<usize> {
        (THRUST..=DASH)
            .contains(&self.code)
            .then(|| usize::from(self.code - THRUST))
    }

    /// Its text in a `duel step` line and a bot's answer: the code, then
    /// its direction's name where it has one (`1 U`, `0`). The one form of
    /// both `Display` and the line printers, which write into a `String`
    /// without the formatting machinery (verify writes a sample of its
    /// cases as text).
    pub fn write_to<W: fmt::Write>(self, out: &mut W) -> fmt::Result {
        if self.code < 10 {
            out.write_char(char::from(b'0' + self.code))?;
        } else {
            write!(out, "{}", self.code)?;
        }
        if let Some(d) = self.dir {
            out.write_char(' ')?;
            out.write_str(d.name())?;
        }
        Ok(())
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// A player's two actions of a turn, first then second.
pub type Actions = [Action; 2];

pub fn write_actions(actions: &Actions) -> String {
    format!("{} {}", actions[0], actions[1])
}

/// Reads an action list in bot output form (`1 U 2 R`, `7 UR 0`): codes 0..=7,
/// each followed by a direction name when one is written; exactly two actions.
pub fn parse_actions(text: &str) -> Result<Actions, String> {
    // Two actions take at most four tokens; a few more are enough to say so.
    let (tokens, found) = crate::input::first_few::<8>(crate::input::words(text).take(8));
    let tokens = &tokens[..found];
    let mut out = [Action::WAIT; 2];
    let (mut i, mut count) = (0, 0);
    while i < tokens.len() {
        let code: u8 = match tokens[i].parse() {
            Ok(code) if code <= DASH => code,
            _ => {
                return Err(format!(
                    "expected an action code 0..=7, found {}",
                    crate::input::quoted(tokens[i])
                ))
            }
        };
        i += 1;
        let dir = tokens.get(i).and_then(|t| Dir::from_name(t));
        if dir.is_some() {
            i += 1;
        }
        if let Some(slot) = out.get_mut(count) {
            *slot = Action { code, dir };
        }
        count += 1;
    }
    match count {
        2 => Ok(out),
        n => Err(format!("expected two actions, found {n}")),
    }
}

/// One player's state at the start of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Player {
    pub pos: Cell,
    /// Signed: damage can take it below 0, and the final state shows it as it is.
    pub hp: i8,
    pub blessing: u8,
    /// For skills 2..=7: turns still to wait (0 = usable this turn).
    pub waits: [u8; 6],
}

impl Player {
    pub fn fresh(pos: Cell) -> Player {
        Player {
            pos,
            hp: START_HP,
            blessing: 0,
            waits: [0; 6],
        }
    }
}

/// The state at the start of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    pub turn: u8,
    pub spring: Cell,
    pub players: [Player; 2],
}

impl State {
    /// Turn 1 of a game.
    pub fn initial(spring: Cell, p1: Cell, p2: Cell) -> State {
        State {
            turn: 1,
            spring,
            players: [Player::fresh(p1), Player::fresh(p2)],
        }
    }

    /// Checks what the parser checks, for states built in code.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=LAST_TURN).contains(&self.turn) {
            return Err(format!("turn {} is not in 1..={LAST_TURN}", self.turn));
        }
        if !inside(self.spring) {
            return Err(format!("the spring {:?} is off the yard", self.spring));
        }
        for (i, p) in self.players.iter().enumerate() {
            if !inside(p.pos) {
                return Err(format!("player {} at {:?} is off the yard", i + 1, p.pos));
            }
            if !(1..=START_HP).contains(&p.hp) {
                return Err(format!("player {} hp {} not in 1..=10", i + 1, p.hp));
            }
            if p.blessing >= WINNING_BLESSING {
                return Err(format!(
                    "player {} blessing {} not in 0..=9",
                    i + 1,
                    p.blessing
                ));
            }
            for (s, &w) in p.waits.iter().enumerate() {
                if w > COOLDOWN[s + 2] {
                    return Err(format!(
                        "player {} waits {w} for {}, more than its cooldown",
                        i + 1,
                        action_name(s as u8 + 2)
                    ));
                }
            }
        }
        if self.players[0].pos == self.players[1].pos {
            return Err("both players stand on one cell".to_string());
        }
        Ok(())
    }
}

/// Why an action list is illegal; `Ok(())` from [`check_legal`] means legal.
pub fn check_legal(state: &State, player: usize, actions: &Actions) -> Result<(), String> {
    let me = &state.players[player];
    for (slot, a) in actions.iter().enumerate() {
        let which = if slot == 0 { "first" } else { "second" };
        match (a.code, a.dir) {
            (WAIT, None) => {}
            (WAIT, Some(_)) => return Err(format!("{which} action: wait takes no direction")),
            (_, None) => {
                return Err(format!(
                    "{which} action: {} needs a direction",
                    action_name(a.code)
                ))
            }
            (DASH, Some(_)) => {}
            (code, Some(d)) if !d.is_straight() => {
                return Err(format!(
                    "{which} action: {} cannot go {}",
                    action_name(code),
                    d.name()
                ))
            }
            _ => {}
        }
        if let Some(s) = a.skill() {
            if me.waits[s] > 0 {
                return Err(format!(
                    "{which} action: {} must wait {} more turn(s)",
                    action_name(a.code),
                    me.waits[s]
                ));
            }
        }
        if slot == 0 && (a.code == MOVE || a.code == DASH) {
            let (dr, dc) = a.dir.map_or((0, 0), Dir::delta);
            let steps = if a.code == DASH { 2 } else { 1 };
            if !inside((me.pos.0 + steps * dr, me.pos.1 + steps * dc)) {
                return Err(format!(
                    "first action: {} leaves the yard",
                    action_name(a.code)
                ));
            }
        }
    }
    if actions[0].skill().is_some() && actions[0].code == actions[1].code {
        return Err(format!(
            "{} twice in one turn",
            action_name(actions[0].code)
        ));
    }
    Ok(())
}

/// The waits after a turn in which `actions` were chosen: used skills get their
/// cooldown, the others count down to 0.
#[inline]
pub fn next_waits(waits: &[u8; 6], actions: Option<&Actions>) -> [u8; 6] {
    let mut out = [0u8; 6];
    for (o, w) in out.iter_mut().zip(waits) {
        *o = w.saturating_sub(1);
    }
    if let Some(actions) = actions {
        for a in actions {
            if let Some(s) = a.skill() {
                out[s] = COOLDOWN[usize::from(a.code)];
            }
        }
    }
    out
}

/// One `duel step` line: a state and both players' action lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    pub state: State,
    pub actions: [Actions; 2],
}

/// A harness case: any number of `duel step` lines, resolved independently.
pub type Case = Vec<Turn>;
pub type Answer = Vec<TurnResult>;

pub use evaluate::*;
pub use events::*;
pub use result::*;
pub use step::*;

#[cfg(test)]
mod tests;
