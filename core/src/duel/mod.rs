//! Cherry Blossom Duel: the model, legality of an action list, the `duel step` text
//! format, and the per-phase event vocabulary both resolvers report in.
//!
//! Two players on a 7x7 yard each choose two actions a turn; the first actions are
//! resolved together in six phases, then the second ones. The rules, and every
//! point the statement leaves open, are in `shared/puzzles/duel.md`. This module
//! holds what the game *is*, so that the fast resolver, the naive one
//! (`lockstep-reference`), the referee and the bots all speak the same types. The
//! fast resolver ([`resolve_turn`], [`resolve_traced`]) and the enumeration of
//! legal action lists ([`legal_lists`]) live in the private module `fast`.
//!
//! A case of the harness is a list of `duel step` lines (a state and both action
//! lists each); the answer is one line per case: the next state and the result.

mod fast;
pub mod race;
pub mod search;

pub use fast::{
    legal_lists, line_marker, prepare, resolve, resolve_traced, resolve_turn, Recorder, Sink,
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
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dir {
            Some(d) => write!(f, "{} {}", self.code, d.name()),
            None => write!(f, "{}", self.code),
        }
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
    let tokens: Vec<&str> = text.split_whitespace().take(8).collect();
    let mut out = Vec::with_capacity(2);
    let mut i = 0;
    while i < tokens.len() {
        let code: u8 = match tokens[i].parse() {
            Ok(code) if code <= DASH => code,
            _ => {
                return Err(format!(
                    "expected an action code 0..=7, found {:?}",
                    tokens[i]
                ))
            }
        };
        i += 1;
        let dir = tokens.get(i).and_then(|t| Dir::from_name(t));
        if dir.is_some() {
            i += 1;
        }
        out.push(Action { code, dir });
    }
    match out[..] {
        [a, b] => Ok([a, b]),
        _ => Err(format!("expected two actions, found {}", out.len())),
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

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    P1,
    P2,
    Draw,
}

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    Hp,
    Out,
    Blessing,
    Illegal,
    Turns,
}

/// The result after a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Ongoing,
    Ended(Winner, Reason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (winner, reason) = match self {
            Outcome::Ongoing => return f.write_str("ongoing"),
            Outcome::Ended(w, r) => (w, r),
        };
        let winner = match winner {
            Winner::P1 => "p1",
            Winner::P2 => "p2",
            Winner::Draw => "draw",
        };
        let reason = match reason {
            Reason::Hp => "hp",
            Reason::Out => "out",
            Reason::Blessing => "blessing",
            Reason::Illegal => "illegal",
            Reason::Turns => "turns",
        };
        write!(f, "{winner} {reason}")
    }
}

/// One `duel step` line: a state and both players' action lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    pub state: State,
    pub actions: [Actions; 2],
}

/// The answer to one line: the state at the start of the next turn and the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TurnResult {
    pub next: State,
    pub outcome: Outcome,
}

/// A harness case: any number of `duel step` lines, resolved independently.
pub type Case = Vec<Turn>;
pub type Answer = Vec<TurnResult>;

/// The value of a won position in [`evaluate`]; a loss is its negation, a draw 0.
/// Larger than any sum of the heuristic terms, so a result always outranks them.
pub const WIN_VALUE: i32 = 1_000_000;

/// A finished game's value for `player`: [`WIN_VALUE`] for a win, its negation
/// for a loss, 0 for a draw; `None` while the game goes on. Both evaluations
/// start with it.
#[inline]
pub fn ended_value(result: &TurnResult, player: usize) -> Option<i32> {
    let mine = match player {
        0 => Winner::P1,
        _ => Winner::P2,
    };
    match result.outcome {
        Outcome::Ended(Winner::Draw, _) => Some(0),
        Outcome::Ended(w, _) if w == mine => Some(WIN_VALUE),
        Outcome::Ended(..) => Some(-WIN_VALUE),
        Outcome::Ongoing => None,
    }
}

/// The position value after a turn, for `player` (0 or 1): the evaluation both
/// searches (core's [`search`] and the reference's exhaustive one) search over.
/// It is shared on purpose: it is the *thing being searched*, not the search, so
/// the differential checks the searches and the engines under them, not this sum.
///
/// Antisymmetric: `evaluate(r, 0) == -evaluate(r, 1)` for every result, so one
/// number serves both sides. Terms, as (mine - the opponent's):
/// - a result: [`WIN_VALUE`] for a win, its negation for a loss, 0 for a draw;
/// - hp: 100 a point (a thrust is worth 200, a charge 300);
/// - blessing: `120 b + 10 b^2`, so that each point is worth more near 10 (the
///   race ends the game, and at turn 60 blessing decides before hp);
/// - distance to the spring: -25 a step (Manhattan: moves are orthogonal);
/// - edge danger: -15 for each cell of pushing room under 3 in each of the four
///   directions (a charge pushes 2, so the outer three rings matter), which keeps
///   a player off the rim where a push ends the game;
/// - waits: -5 a turn of cooldown still to wait.
pub fn evaluate(result: &TurnResult, player: usize) -> i32 {
    if let Some(value) = ended_value(result, player) {
        return value;
    }
    let spring = result.next.spring;
    let side = |p: &Player| -> i32 {
        let bless = i32::from(p.blessing);
        let dist = i32::from((p.pos.0 - spring.0).abs() + (p.pos.1 - spring.1).abs());
        let (r, c) = (i32::from(p.pos.0), i32::from(p.pos.1));
        // Cells of room before the rim in each direction: 0 on the rim itself.
        let room = [r - 1, SIZE as i32 - r, c - 1, SIZE as i32 - c];
        let danger: i32 = room.iter().map(|&k| (3 - k).max(0)).sum();
        let waits: i32 = p.waits.iter().map(|&w| i32::from(w)).sum();
        100 * i32::from(p.hp) + 120 * bless + 10 * bless * bless
            - 25 * dist
            - 15 * danger
            - 5 * waits
    };
    side(&result.next.players[player]) - side(&result.next.players[1 - player])
}

/// The phases of one slot, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    Dash,
    GuardThrust,
    MoveCharge,
    Strike,
    Comparison,
    PushDamage,
}

impl Phase {
    pub const ALL: [Phase; 6] = [
        Phase::Dash,
        Phase::GuardThrust,
        Phase::MoveCharge,
        Phase::Strike,
        Phase::Comparison,
        Phase::PushDamage,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Phase::Dash => "1 dash",
            Phase::GuardThrust => "2 guard and thrust",
            Phase::MoveCharge => "3 move and charge",
            Phase::Strike => "4 sweep, charge and break",
            Phase::Comparison => "5 comparison",
            Phase::PushDamage => "6 push and damage",
        }
    }

    pub const fn slug(self) -> &'static str {
        match self {
            Phase::Dash => "dash",
            Phase::GuardThrust => "guard-thrust",
            Phase::MoveCharge => "move-charge",
            Phase::Strike => "strike",
            Phase::Comparison => "comparison",
            Phase::PushDamage => "push-damage",
        }
    }
}

/// Per-player flags of an [`Event`].
pub const MOVED: u8 = 1;
/// The player's attack hit (thrust in phase 2; sweep, charge, break in phase 4).
pub const HIT: u8 = 2;
/// The player's attack reached the opponent but the opponent's guard blocked it.
pub const BLOCKED: u8 = 4;
/// The player's move was cancelled by a thrust (phase 2).
pub const CANCELLED: u8 = 8;
/// The player's attack takes effect after the comparison (phase 5).
pub const EFFECTIVE: u8 = 16;
/// The player is out of the yard (phase 6).
pub const OUT: u8 = 32;

/// What both players look like after one phase of one slot. Both resolvers emit
/// exactly one event per phase per performed slot, so their traces line up and
/// a divergence can be named by the first phase where they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Event {
    /// 0 for the first actions, 1 for the second.
    pub slot: u8,
    pub phase: Phase,
    pub pos: [Cell; 2],
    pub hp: [i8; 2],
    pub flags: [u8; 2],
}

impl Event {
    /// The word both resolvers fold into their trace digest.
    #[inline]
    pub fn packed(&self) -> u64 {
        let b = |v: i8| u64::from(v as u8);
        u64::from(self.slot)
            | (self.phase as u64) << 1
            | b(self.pos[0].0) << 4
            | b(self.pos[0].1) << 8
            | b(self.pos[1].0) << 12
            | b(self.pos[1].1) << 16
            | b(self.hp[0]) << 20
            | b(self.hp[1]) << 28
            | u64::from(self.flags[0]) << 36
            | u64::from(self.flags[1]) << 44
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flags = |v: u8| {
            let names = [
                (MOVED, "moved"),
                (HIT, "hit"),
                (BLOCKED, "blocked"),
                (CANCELLED, "cancelled"),
                (EFFECTIVE, "effective"),
                (OUT, "out"),
            ];
            let set: Vec<&str> = names
                .iter()
                .filter(|(bit, _)| v & bit != 0)
                .map(|(_, n)| *n)
                .collect();
            if set.is_empty() {
                "-".to_string()
            } else {
                set.join(",")
            }
        };
        write!(
            f,
            "slot {} phase {}: P1 ({},{}) hp {} [{}]; P2 ({},{}) hp {} [{}]",
            self.slot + 1,
            self.phase.name(),
            self.pos[0].0,
            self.pos[0].1,
            self.hp[0],
            flags(self.flags[0]),
            self.pos[1].0,
            self.pos[1].1,
            self.hp[1],
            flags(self.flags[1])
        )
    }
}

fn write_player(out: &mut String, p: &Player) {
    use std::fmt::Write;
    let _ = write!(out, "{} {} {} {}", p.pos.0, p.pos.1, p.hp, p.blessing);
    for w in p.waits {
        let _ = write!(out, " {w}");
    }
}

/// `T OR OC R1 C1 H1 B1 W*6 R2 C2 H2 B2 W*6`. `turn` is printed as given, so the
/// answer's T+1 may be 61.
pub fn write_state(state: &State) -> String {
    let mut out = format!("{} {} {} ", state.turn, state.spring.0, state.spring.1);
    write_player(&mut out, &state.players[0]);
    out.push(' ');
    write_player(&mut out, &state.players[1]);
    out
}

pub fn write_turn(turn: &Turn) -> String {
    format!(
        "{} | {} | {}",
        write_state(&turn.state),
        write_actions(&turn.actions[0]),
        write_actions(&turn.actions[1])
    )
}

pub fn write_result(result: &TurnResult) -> String {
    format!("{} | {}", write_state(&result.next), result.outcome)
}

pub fn write_input(case: &Case) -> String {
    case.iter().map(|t| write_turn(t) + "\n").collect()
}

pub fn write_answer(answer: &Answer) -> String {
    answer.iter().map(|r| write_result(r) + "\n").collect()
}

/// Parses one `duel step` line (numbered `number` in errors).
pub fn parse_turn(text: &str, number: usize) -> Result<Turn, InputError> {
    let err = |m: String| InputError::new(number, m);
    // Bounded splits: a line of megabytes costs no more than its text.
    let parts: Vec<&str> = text.splitn(4, '|').collect();
    if parts.len() != 3 {
        return Err(err(format!(
            "expected STATE | ACTIONS1 | ACTIONS2, found {} separated by |",
            match parts.len() {
                1 => "1 part".to_string(),
                n if n > 3 => "more than 3 parts".to_string(),
                n => format!("{n} parts"),
            }
        )));
    }
    let tokens: Vec<&str> = parts[0].split_whitespace().take(24).collect();
    if tokens.len() != 23 {
        return Err(err(format!(
            "expected 23 numbers in the state (T OR OC, then R C H B and six waits per player), found {}",
            if tokens.len() > 23 { "more".to_string() } else { tokens.len().to_string() }
        )));
    }
    let int = |i: usize, what: &str, lo: i64, hi: i64| -> Result<i64, InputError> {
        parse_int(tokens[i], number, what, lo..=hi)
    };
    let turn = int(0, "T", 1, i64::from(LAST_TURN))? as u8;
    let spring = (int(1, "OR", 1, 7)? as i8, int(2, "OC", 1, 7)? as i8);
    let mut players = [Player::fresh((1, 1)); 2];
    for (p, player) in players.iter_mut().enumerate() {
        let base = 3 + 10 * p;
        let n = p + 1;
        player.pos = (
            int(base, &format!("R{n}"), 1, 7)? as i8,
            int(base + 1, &format!("C{n}"), 1, 7)? as i8,
        );
        player.hp = int(base + 2, &format!("H{n}"), 1, i64::from(START_HP))? as i8;
        player.blessing = int(
            base + 3,
            &format!("B{n}"),
            0,
            i64::from(WINNING_BLESSING) - 1,
        )? as u8;
        for s in 0..6 {
            let what = format!("player {n}'s wait for {}", action_name(s as u8 + 2));
            player.waits[s] = int(base + 4 + s, &what, 0, i64::from(COOLDOWN[s + 2]))? as u8;
        }
    }
    if players[0].pos == players[1].pos {
        return Err(err("both players stand on one cell".to_string()));
    }
    let mut actions = [[Action::WAIT; 2]; 2];
    for p in 0..2 {
        actions[p] =
            parse_actions(parts[1 + p]).map_err(|m| err(format!("ACTIONS{}: {m}", p + 1)))?;
    }
    Ok(Turn {
        state: State {
            turn,
            spring,
            players,
        },
        actions,
    })
}

/// Parses `duel step` text: one case per line; blank lines are skipped.
pub fn parse(text: &str) -> Result<Case, InputError> {
    let mut case = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        if !raw.trim().is_empty() {
            case.push(parse_turn(raw, index + 1)?);
        }
    }
    if case.is_empty() {
        return Err(InputError::new(
            1,
            "expected a duel step line, found end of input",
        ));
    }
    Ok(case)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "1 2 4 4 3 10 0 0 0 0 0 0 0 4 5 10 0 0 0 0 0 0 0 | 1 U 2 R | 1 U 2 L";

    #[test]
    fn a_line_round_trips() {
        let case = parse(LINE).unwrap();
        assert_eq!(write_input(&case), format!("{LINE}\n"));
        assert_eq!(
            case[0].actions[0],
            [Action::new(1, Dir::U), Action::new(2, Dir::R)]
        );
        assert!(case[0].state.validate().is_ok());
    }

    #[test]
    fn malformed_lines_name_the_line() {
        let cases = [
            ("\n1 2 4", "line 2: expected STATE"),
            ("1 2 4 | 0 0 | 0 0", "line 1: expected 23 numbers"),
            (
                &LINE.replace("| 1 U 2 L", "| 9 U 0"),
                "line 1: ACTIONS2: expected an action code",
            ),
            (
                &LINE.replace("| 1 U 2 L", "| 1 U"),
                "line 1: ACTIONS2: expected two actions, found 1",
            ),
            (&LINE.replace("4 5 10", "4 3 10"), "line 1: both players"),
            (
                &LINE.replacen("1 2 4", "61 2 4", 1),
                "line 1: T must be in 1..=60",
            ),
            ("", "line 1: expected a duel step line"),
        ];
        for (input, message) in cases {
            let e = parse(input).unwrap_err().to_string();
            assert!(e.starts_with(message), "{input:?}: {e}");
        }
    }

    #[test]
    fn odd_actions_parse_and_are_judged_illegal() {
        let state = parse(LINE).unwrap()[0].state;
        for (text, legal) in [
            ("0 U 0", false),
            ("1 UR 0", false),
            ("7 UR 0", true),
            ("1 0", false),
            ("2 R 2 L", false),
            ("1 U 1 U", true),
            ("1 D 1 D", true),
            ("7 D 0", true),
            ("7 DR 0", true),
            ("0 7 DR", true),
            ("0 7 UL", true),
            ("4 R 0", true),
        ] {
            let actions = parse_actions(text).unwrap();
            assert_eq!(check_legal(&state, 0, &actions).is_ok(), legal, "{text}");
        }
        let corner = State::initial((1, 1), (1, 1), (7, 7));
        assert!(check_legal(&corner, 0, &parse_actions("1 U 0").unwrap()).is_err());
        assert!(check_legal(&corner, 0, &parse_actions("0 1 U").unwrap()).is_ok());
        assert!(check_legal(&corner, 0, &parse_actions("4 U 0").unwrap()).is_ok());
        assert!(check_legal(&corner, 0, &parse_actions("7 R 0").unwrap()).is_ok());
        assert!(check_legal(&corner, 0, &parse_actions("7 DR 0").unwrap()).is_ok());
        assert!(check_legal(&corner, 0, &parse_actions("7 UR 0").unwrap()).is_err());
    }
}
