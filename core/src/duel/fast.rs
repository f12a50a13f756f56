//! The fast Duel turn resolver, and the enumeration of legal action lists.
//!
//! Built to sit inside a search that tries about a million joint actions a turn:
//!
//! - A cell inside the yard is an index 0..49 (row-major); an area is a `u64` with
//!   one bit per cell. Every area (thrust and charge, sweep, break, guard) and every
//!   one-step and dash target is a `const` table indexed by direction and cell,
//!   built at compile time from the rule text's geometry, so a hit test is one AND.
//! - A turn works on two cell indices and two hp values in registers and allocates
//!   nothing; a push, which may leave the yard, is the only place that steps in
//!   (row, column) coordinates.
//! - Events (one per phase per slot, see [`Event`]) go to a [`Sink`]; the search
//!   uses `()`, whose `ACTIVE = false` lets the compiler drop every event.

// Players are indexed by `p` and the opponent by `1 - p` throughout, which reads
// better than zipped iterators.
#![allow(clippy::needless_range_loop)]

use super::{
    Action, Actions, Case, Cell, Dir, Event, Outcome, Phase, Player, Reason, State, Turn,
    TurnResult, Winner, BLOCKED, CANCELLED, CHARGE, DASH, EFFECTIVE, GUARD, HIT, LAST_TURN, MOVE,
    MOVED, OUT, SWEEP, THRUST, WINNING_BLESSING,
};
use crate::digest::Digest;

const N: usize = 7;
const CELLS: usize = N * N;
/// "No target": a move, dash or charge movement that would leave the yard.
const NONE: u8 = 64;
/// A direction index for "no direction" in the compact action form.
const NO_DIR: u8 = 8;

const DELTAS: [(i8, i8); 8] = {
    let mut d = [(0, 0); 8];
    let mut i = 0;
    while i < 8 {
        d[i] = Dir::ALL[i].delta();
        i += 1;
    }
    d
};

const fn cell_at(r: i32, c: i32) -> u8 {
    if r >= 0 && r < N as i32 && c >= 0 && c < N as i32 {
        (r * N as i32 + c) as u8
    } else {
        NONE
    }
}

const fn bit_at(r: i32, c: i32) -> u64 {
    let cell = cell_at(r, c);
    if cell == NONE {
        0
    } else {
        1 << cell
    }
}

/// The cell `k` steps from `cell` in direction `d`, or [`NONE`].
const fn targets(k: i32) -> [[u8; CELLS]; 8] {
    let mut t = [[NONE; CELLS]; 8];
    let mut d = 0;
    while d < 8 {
        let mut cell = 0;
        while cell < CELLS {
            let (r, c) = ((cell / N) as i32, (cell % N) as i32);
            t[d][cell] = cell_at(r + k * DELTAS[d].0 as i32, c + k * DELTAS[d].1 as i32);
            cell += 1;
        }
        d += 1;
    }
    t
}

const STEP: [[u8; CELLS]; 8] = targets(1);
const DASH2: [[u8; CELLS]; 8] = targets(2);

/// Area kinds for [`area`].
const AREA_THRUST: usize = 0;
const AREA_SWEEP: usize = 1;
const AREA_BREAK: usize = 2;
const AREA_GUARD: usize = 3;

/// Areas by kind, straight direction and cell: front cells 1 and 2 (thrust and
/// charge); the row in front and both sides (sweep); front cell 1 (break); the row
/// in front and front cell 2 (guard). Cells off the yard are simply absent.
const AREAS: [[[u64; CELLS]; 4]; 4] = {
    let mut a = [[[0u64; CELLS]; 4]; 4];
    let mut d = 0;
    while d < 4 {
        let (fr, fc) = (DELTAS[d].0 as i32, DELTAS[d].1 as i32);
        // Left and right of the facing direction.
        let (lr, lc) = (-fc, fr);
        let (rr, rc) = (fc, -fr);
        let mut cell = 0;
        while cell < CELLS {
            let (r, c) = ((cell / N) as i32, (cell % N) as i32);
            let front1 = bit_at(r + fr, c + fc);
            let front2 = bit_at(r + 2 * fr, c + 2 * fc);
            let front_row =
                front1 | bit_at(r + fr + lr, c + fc + lc) | bit_at(r + fr + rr, c + fc + rc);
            let sides = bit_at(r + lr, c + lc) | bit_at(r + rr, c + rc);
            a[AREA_THRUST][d][cell] = front1 | front2;
            a[AREA_SWEEP][d][cell] = front_row | sides;
            a[AREA_BREAK][d][cell] = front1;
            a[AREA_GUARD][d][cell] = front_row | front2;
            cell += 1;
        }
        d += 1;
    }
    a
};

/// Damage and push length of each code's attack (0 for codes that do not attack).
const DAMAGE: [i8; 8] = [0, 0, 2, 2, 3, 0, 2, 0];
const PUSH: [u8; 8] = [0, 0, 0, 1, 2, 0, 1, 0];

/// Receives one [`Event`] per phase of every slot performed.
pub trait Sink {
    /// False for sinks that drop events: the resolver then builds none.
    const ACTIVE: bool;
    fn event(&mut self, event: Event);
}

impl Sink for () {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

impl Sink for Digest {
    const ACTIVE: bool = true;
    #[inline]
    fn event(&mut self, event: Event) {
        self.push(event.packed());
    }
}

/// Keeps every event, for reports.
#[derive(Debug, Default, Clone)]
pub struct Recorder(pub Vec<Event>);

impl Sink for Recorder {
    const ACTIVE: bool = true;
    fn event(&mut self, event: Event) {
        self.0.push(event);
    }
}

#[inline(always)]
fn cell_of((r, c): Cell) -> u8 {
    ((r - 1) as u8) * N as u8 + (c - 1) as u8
}

#[inline(always)]
fn rc(cell: u8) -> Cell {
    ((cell / N as u8) as i8 + 1, (cell % N as u8) as i8 + 1)
}

/// (code, direction index or [`NO_DIR`]).
#[derive(Clone, Copy)]
struct Act {
    code: u8,
    dir: u8,
}

#[inline(always)]
fn compact(a: Action) -> Act {
    Act {
        code: a.code,
        dir: a.dir.map_or(NO_DIR, |d| d as u8),
    }
}

/// Legality without building a message (see [`super::check_legal`], which gives
/// the reason; the tests hold the two to the same verdicts).
#[inline(always)]
fn legal(p: &Player, actions: &Actions) -> bool {
    let cell = cell_of(p.pos) as usize;
    for (slot, a) in actions.iter().enumerate() {
        let a = compact(*a);
        match a.code {
            0 => {
                if a.dir != NO_DIR {
                    return false;
                }
                continue;
            }
            DASH => {
                if a.dir == NO_DIR {
                    return false;
                }
            }
            _ => {
                if a.dir >= 4 {
                    return false;
                }
            }
        }
        if a.code >= THRUST && p.waits[usize::from(a.code - THRUST)] > 0 {
            return false;
        }
        if slot == 0 {
            let target = match a.code {
                MOVE => STEP[usize::from(a.dir)][cell],
                DASH => DASH2[usize::from(a.dir)][cell],
                _ => 0,
            };
            if target == NONE {
                return false;
            }
        }
    }
    !(actions[0].code >= THRUST && actions[0].code == actions[1].code)
}

/// The movement rules of phases 1 and 3: `t` holds each mover's target or
/// [`NONE`] for a player that does not move in this phase.
#[inline(always)]
fn movement(cells: &mut [u8; 2], t: [u8; 2]) -> [bool; 2] {
    let m = [t[0] != NONE, t[1] != NONE];
    let go = if m[0] && m[1] {
        let blocked = t[0] == t[1] || (t[0] == cells[1] && t[1] == cells[0]);
        [!blocked, !blocked]
    } else {
        [m[0] && t[0] != cells[1], m[1] && t[1] != cells[0]]
    };
    if go[0] {
        cells[0] = t[0];
    }
    if go[1] {
        cells[1] = t[1];
    }
    go
}

/// The two players while a slot runs: cells inside the yard, and after the pushes
/// positions that may be outside it.
struct Slot {
    cells: [u8; 2],
    hp: [i8; 2],
}

/// `[f(0), f(1)]`: the two players' values. (`[0, 1].map(f)` compiles to a loop
/// through `try_map` that the optimiser does not always unroll on this hot path.)
#[inline(always)]
fn both<T>(f: impl Fn(usize) -> T) -> [T; 2] {
    [f(0), f(1)]
}

#[inline(always)]
fn flag(cond: bool, bit: u8) -> u8 {
    if cond {
        bit
    } else {
        0
    }
}

impl Slot {
    #[inline(always)]
    fn emit<S: Sink>(&self, sink: &mut S, slot: u8, phase: Phase, flags: [u8; 2]) {
        if S::ACTIVE {
            sink.event(Event {
                slot,
                phase,
                pos: [rc(self.cells[0]), rc(self.cells[1])],
                hp: self.hp,
                flags,
            });
        }
    }

    /// Resolves one pair of simultaneous actions. Returns where both stand after
    /// the pushes (possibly outside the yard) when an attack took effect, `None`
    /// when none did: then both are inside, on `cells` (most slots: converting
    /// cells to coordinates only when needed saves work on the search's hot path).
    #[inline(always)]
    fn run<S: Sink>(&mut self, slot: u8, a: [Act; 2], sink: &mut S) -> Option<[Cell; 2]> {
        let dir = [usize::from(a[0].dir), usize::from(a[1].dir)];
        // Phase 1: dashes. A second-slot dash off the yard has target NONE.
        let t = both(|p| {
            if a[p].code == DASH {
                DASH2[dir[p]][usize::from(self.cells[p])]
            } else {
                NONE
            }
        });
        let moved = movement(&mut self.cells, t);
        self.emit(sink, slot, Phase::Dash, both(|p| flag(moved[p], MOVED)));

        // Phase 2: guards, then thrusts judged from here.
        let guard = both(|p| {
            if a[p].code == GUARD {
                AREAS[AREA_GUARD][dir[p]][usize::from(self.cells[p])]
            } else {
                0
            }
        });
        let mut hit = [false; 2];
        let mut flags = [0u8; 2];
        let mut cancelled = [false; 2];
        for p in 0..2 {
            let o = 1 - p;
            if a[p].code == THRUST {
                let reach = AREAS[AREA_THRUST][dir[p]][usize::from(self.cells[p])] >> self.cells[o]
                    & 1
                    != 0;
                let blocked = guard[o] >> self.cells[p] & 1 != 0;
                hit[p] = reach && !blocked;
                flags[p] |= flag(reach && blocked, BLOCKED) | flag(hit[p], HIT);
                if hit[p] && a[o].code == MOVE {
                    cancelled[o] = true;
                    flags[o] |= CANCELLED;
                }
            }
        }
        self.emit(sink, slot, Phase::GuardThrust, flags);

        // Phase 3: moves (unless cancelled) and charge movements.
        let t = both(|p| {
            if (a[p].code == MOVE && !cancelled[p]) || a[p].code == CHARGE {
                STEP[dir[p]][usize::from(self.cells[p])]
            } else {
                NONE
            }
        });
        let moved = movement(&mut self.cells, t);
        self.emit(
            sink,
            slot,
            Phase::MoveCharge,
            both(|p| flag(moved[p], MOVED)),
        );

        // Phase 4: sweep, charge and break from where the attackers now stand.
        let mut flags = [0u8; 2];
        for p in 0..2 {
            let o = 1 - p;
            let kind = match a[p].code {
                SWEEP => AREA_SWEEP,
                CHARGE => AREA_THRUST,
                6 => AREA_BREAK,
                _ => continue,
            };
            let reach = AREAS[kind][dir[p]][usize::from(self.cells[p])] >> self.cells[o] & 1 != 0;
            let blocked = kind != AREA_BREAK && guard[o] >> self.cells[p] & 1 != 0;
            hit[p] = reach && !blocked;
            flags[p] |= flag(reach && blocked, BLOCKED) | flag(hit[p], HIT);
        }
        self.emit(sink, slot, Phase::Strike, flags);

        // Phase 5: comparison.
        let damage = both(|p| {
            if hit[p] {
                DAMAGE[usize::from(a[p].code)]
            } else {
                0
            }
        });
        let effective = if hit[0] && hit[1] {
            [damage[0] >= damage[1], damage[1] >= damage[0]]
        } else {
            hit
        };
        self.emit(
            sink,
            slot,
            Phase::Comparison,
            both(|p| flag(effective[p], EFFECTIVE)),
        );

        // Phase 6: damage (none on a tie) and pushes, one cell at a time.
        let tie = hit[0] && hit[1] && damage[0] == damage[1];
        if !effective[0] && !effective[1] {
            self.emit(sink, slot, Phase::PushDamage, [0, 0]);
            return None;
        }
        let mut pos = [rc(self.cells[0]), rc(self.cells[1])];
        let mut left = [0u8; 2];
        let mut step = [(0i8, 0i8); 2];
        for p in 0..2 {
            if effective[p] {
                let o = 1 - p;
                if !tie {
                    self.hp[o] -= damage[p];
                }
                left[o] = PUSH[usize::from(a[p].code)];
                step[o] = DELTAS[dir[p]];
            }
        }
        while left[0] > 0 || left[1] > 0 {
            let mut next = pos;
            for p in 0..2 {
                if left[p] > 0 {
                    next[p] = (pos[p].0 + step[p].0, pos[p].1 + step[p].1);
                }
            }
            if next[0] == next[1] {
                break;
            }
            pos = next;
            for p in 0..2 {
                if left[p] > 0 {
                    left[p] -= 1;
                    if !super::inside(pos[p]) {
                        left[p] = 0;
                    }
                }
            }
        }
        let out = both(|p| !super::inside(pos[p]));
        if !out[0] {
            self.cells[0] = cell_of(pos[0]);
        }
        if !out[1] {
            self.cells[1] = cell_of(pos[1]);
        }
        if S::ACTIVE {
            sink.event(Event {
                slot,
                phase: Phase::PushDamage,
                pos,
                hp: self.hp,
                flags: [flag(out[0], OUT), flag(out[1], OUT)],
            });
        }
        Some(pos)
    }
}

/// Resolves one turn, sending one event per phase of every performed slot to
/// `sink`.
#[inline]
pub fn resolve_traced<S: Sink>(state: &State, actions: &[Actions; 2], sink: &mut S) -> TurnResult {
    let mut next = *state;
    next.turn = state.turn + 1;
    let ok = [
        legal(&state.players[0], &actions[0]),
        legal(&state.players[1], &actions[1]),
    ];
    if !(ok[0] && ok[1]) {
        for p in &mut next.players {
            for w in &mut p.waits {
                *w = w.saturating_sub(1);
            }
        }
        let winner = match ok {
            [true, false] => Winner::P1,
            [false, true] => Winner::P2,
            _ => Winner::Draw,
        };
        return TurnResult {
            next,
            outcome: Outcome::Ended(winner, Reason::Illegal),
        };
    }
    for p in 0..2 {
        next.players[p].waits = super::next_waits(&state.players[p].waits, Some(&actions[p]));
    }
    let mut s = Slot {
        cells: [cell_of(state.players[0].pos), cell_of(state.players[1].pos)],
        hp: [state.players[0].hp, state.players[1].hp],
    };
    let mut outcome = Outcome::Ongoing;
    let mut pushed = None;
    for slot in 0..2 {
        let acts = [compact(actions[0][slot]), compact(actions[1][slot])];
        pushed = s.run(slot as u8, acts, sink);
        let dead = [s.hp[0] <= 0, s.hp[1] <= 0];
        let out = pushed.map_or([false, false], |pos| both(|p| !super::inside(pos[p])));
        let lost = both(|p| dead[p] || out[p]);
        if lost[0] || lost[1] {
            let winner = match lost {
                [true, true] => Winner::Draw,
                [true, false] => Winner::P2,
                _ => Winner::P1,
            };
            let by_hp = (lost[0] && dead[0]) || (lost[1] && dead[1]);
            outcome = Outcome::Ended(winner, if by_hp { Reason::Hp } else { Reason::Out });
            break;
        }
    }
    let pos = pushed.unwrap_or_else(|| [rc(s.cells[0]), rc(s.cells[1])]);
    for p in 0..2 {
        next.players[p].pos = pos[p];
        next.players[p].hp = s.hp[p];
    }
    if outcome == Outcome::Ongoing {
        for p in &mut next.players {
            if p.pos == state.spring {
                p.blessing += 1;
            }
        }
        let [b0, b1] = [next.players[0].blessing, next.players[1].blessing];
        let won = [b0 >= WINNING_BLESSING, b1 >= WINNING_BLESSING];
        if won[0] || won[1] {
            let winner = match won {
                [true, true] => Winner::Draw,
                [true, false] => Winner::P1,
                _ => Winner::P2,
            };
            outcome = Outcome::Ended(winner, Reason::Blessing);
        } else if state.turn >= LAST_TURN {
            let key = |p: &Player| (p.blessing, p.hp);
            let winner = match key(&next.players[0]).cmp(&key(&next.players[1])) {
                std::cmp::Ordering::Greater => Winner::P1,
                std::cmp::Ordering::Less => Winner::P2,
                std::cmp::Ordering::Equal => Winner::Draw,
            };
            outcome = Outcome::Ended(winner, Reason::Turns);
        }
    }
    TurnResult { next, outcome }
}

/// Resolves one turn with no events: the form a search calls.
#[inline]
pub fn resolve_turn(state: &State, actions: &[Actions; 2]) -> TurnResult {
    resolve_traced(state, actions, &mut ())
}

/// The word folded into the digest before each line's events, so that events
/// cannot slide from one line to the next.
pub fn line_marker(index: usize) -> u64 {
    1 << 63 | index as u64
}

/// Resolves every line of a case; the digest covers every event of every line.
pub fn resolve(case: &Case) -> (Vec<TurnResult>, u64) {
    let mut digest = Digest::new();
    let answer = case
        .iter()
        .enumerate()
        .map(|(i, turn): (usize, &Turn)| {
            digest.push(line_marker(i));
            resolve_traced(&turn.state, &turn.actions, &mut digest)
        })
        .collect();
    (answer, digest.value())
}

/// Every legal action list of `player` in `state`, into `out` (cleared first).
/// At most 33 choices a slot, so at most 1089 lists.
pub fn legal_lists(state: &State, player: usize, out: &mut Vec<Actions>) {
    out.clear();
    let me = &state.players[player];
    let cell = usize::from(cell_of(me.pos));
    let mut choices = [[Action::WAIT; 33]; 2];
    let mut counts = [0usize; 2];
    for slot in 0..2 {
        let mut push = |a: Action| {
            choices[slot][counts[slot]] = a;
            counts[slot] += 1;
        };
        push(Action::WAIT);
        for code in 1..=DASH {
            if code >= THRUST && me.waits[usize::from(code - THRUST)] > 0 {
                continue;
            }
            let dirs: &[Dir] = if code == DASH {
                &Dir::ALL
            } else {
                &Dir::STRAIGHT
            };
            for &d in dirs {
                let lands = match code {
                    MOVE => STEP[d as usize][cell] != NONE,
                    DASH => DASH2[d as usize][cell] != NONE,
                    _ => true,
                };
                if slot == 1 || lands {
                    push(Action::new(code, d));
                }
            }
        }
    }
    for &first in &choices[0][..counts[0]] {
        for &second in &choices[1][..counts[1]] {
            if first.code >= THRUST && first.code == second.code {
                continue;
            }
            out.push([first, second]);
        }
    }
}

/// The geometry tables, for tests: the area of `kind` (0 thrust/charge, 1 sweep,
/// 2 break, 3 guard) facing `d` from `cell`, as cells.
pub fn area_cells(kind: usize, d: Dir, from: Cell) -> Vec<Cell> {
    let mask = AREAS[kind][d as usize][usize::from(cell_of(from))];
    (0..CELLS as u8)
        .filter(|&c| mask >> c & 1 != 0)
        .map(rc)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::{check_legal, parse_actions};

    #[test]
    fn areas_match_the_rule_text() {
        let mut sweep = area_cells(AREA_SWEEP, Dir::R, (4, 3));
        sweep.sort();
        assert_eq!(sweep, [(3, 3), (3, 4), (4, 4), (5, 3), (5, 4)]);
        let mut guard = area_cells(AREA_GUARD, Dir::U, (2, 2));
        guard.sort();
        assert_eq!(guard, [(1, 1), (1, 2), (1, 3)]);
        assert_eq!(area_cells(AREA_THRUST, Dir::L, (1, 2)), [(1, 1)]);
        assert_eq!(area_cells(AREA_BREAK, Dir::D, (7, 7)), []);
    }

    #[test]
    fn enumeration_is_exactly_the_legal_lists() {
        let mut all = Vec::new();
        for code in 0..=DASH {
            all.push(Action { code, dir: None });
            for d in Dir::ALL {
                all.push(Action::new(code, d));
            }
        }
        let mut lists = Vec::new();
        for (pos, waits) in [
            ((1, 1), [0; 6]),
            ((4, 4), [1, 0, 2, 0, 1, 0]),
            ((2, 7), [0, 2, 0, 1, 0, 2]),
            ((7, 5), [1, 1, 1, 1, 1, 1]),
        ] {
            let mut state =
                State::initial((4, 4), pos, if pos == (5, 5) { (1, 1) } else { (5, 5) });
            state.players[0].waits = waits;
            legal_lists(&state, 0, &mut lists);
            let mut expected = Vec::new();
            for &a in &all {
                for &b in &all {
                    let ok = check_legal(&state, 0, &[a, b]).is_ok();
                    assert_eq!(ok, legal(&state.players[0], &[a, b]), "{a} {b} at {pos:?}");
                    if ok {
                        expected.push([a, b]);
                    }
                }
            }
            let mut got = lists.clone();
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "at {pos:?} waits {waits:?}");
        }
        assert!(parse_actions("7 UL 0").is_ok());
    }
}
