//! The fast Duel turn resolver, and the enumeration of legal action lists.
//!
//! Built to sit inside a search that tries about a million joint actions a turn:
//!
//! - A cell inside the yard is an index 0..49 (row-major); an area is a `u64` with
//!   one bit per cell. A written action is mapped once to one of the 33 well-formed
//!   actions (its "action id"); its area (thrust and charge, sweep, break, guard)
//!   and its movement target are `const` tables indexed by action id and cell,
//!   built at compile time from the rule text's geometry, so a hit test is one AND
//!   and a move one lookup. Legality is table bits too, and the six waits count
//!   down as one word.
//! - A turn works on two cell indices and two hp values in registers and allocates
//!   nothing; a push, which may leave the yard, is the only place that steps in
//!   (row, column) coordinates. Which player dashes, guards or strikes is data
//!   (selects), not control flow: it changes from one call to the next, so
//!   branches on it are often mispredicted.
//! - Events (one per phase per slot, see [`Event`]) go to a [`Sink`]; the search
//!   uses `()`, whose `ACTIVE = false` lets the compiler drop every event.
//! - Without events, a slot is one lookup in a table of every slot's outcome
//!   ([`slot_table`]), built on first use by the same slot code. A slot depends
//!   only on the two cells and the two action ids, and the rules have no favoured
//!   direction or player, so the table holds one pair of cells per orbit under
//!   the yard's eight symmetries and the trade of the two players: 171 pairs
//!   instead of 2352, 372 KB instead of 5.1 MB, small enough to stay in the
//!   processor's second-level cache. Measured with `lockstep bench duel`: on
//!   isolated generated turns, 20 M turns/s against 17.5 M for the slot code;
//!   on every joint action of a state's matrix, as a search resolves them, 1.8
//!   times the slot code's rate (figures and what limits each in
//!   ARCHITECTURE.md). [`prepare`] builds the table ahead of a clock.
//!
//! [`resolve`] answers by the table and digests the events of the slot code, so
//! that every differential run holds both paths to the reference (at the cost of
//! resolving each line twice there).

// Players are indexed by `p` and the opponent by `1 - p` throughout, which reads
// better than zipped iterators.
#![allow(clippy::needless_range_loop)]

use super::{
    Action, Actions, Case, Cell, Dir, Event, Outcome, Phase, Player, Reason, State, Turn,
    TurnResult, Winner, BLOCKED, BREAK, CANCELLED, CHARGE, DASH, EFFECTIVE, GUARD, HIT, LAST_TURN,
    MOVE, MOVED, OUT, SIZE, SWEEP, THRUST, WINNING_BLESSING,
};
use crate::digest::Digest;

const N: usize = SIZE as usize;
const CELLS: usize = N * N;
/// "No target": a move, dash or charge movement that would leave the yard.
const NONE: u8 = 64;
/// The direction index of an action written without a direction.
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

/// The area of an attack or guard with `code` facing straight direction `d` from
/// `cell`, as the rule text draws it: front cells 1 and 2 (thrust and charge); the
/// row in front and both sides (sweep); front cell 1 (break); the row in front and
/// front cell 2 (guard); nothing for other codes. Cells off the yard are absent.
const fn area_mask(code: u8, d: usize, cell: usize) -> u64 {
    let (fr, fc) = (DELTAS[d].0 as i32, DELTAS[d].1 as i32);
    // Left and right of the facing direction.
    let (lr, lc) = (-fc, fr);
    let (rr, rc) = (fc, -fr);
    let (r, c) = ((cell / N) as i32, (cell % N) as i32);
    let front1 = bit_at(r + fr, c + fc);
    let front2 = bit_at(r + 2 * fr, c + 2 * fc);
    let front_row = front1 | bit_at(r + fr + lr, c + fc + lc) | bit_at(r + fr + rr, c + fc + rc);
    let sides = bit_at(r + lr, c + lc) | bit_at(r + rr, c + rc);
    match code {
        THRUST | CHARGE => front1 | front2,
        SWEEP => front_row | sides,
        BREAK => front1,
        GUARD => front_row | front2,
        _ => 0,
    }
}

/// An action as written, as one index: `code * 9 + direction` (direction 8 for
/// none), with codes above 7 folded into row 8, which is never legal. Legality is
/// decided from this index by table lookups (see [`ID_OF_WRITTEN`]).
const WRITTEN_COUNT: usize = 9 * 9;

#[inline(always)]
fn written_index(a: Action) -> usize {
    usize::from(a.code.min(8)) * 9 + usize::from(a.dir.map_or(NO_DIR, |d| d as u8))
}

/// The well-formed actions (a code with the kind of direction it takes), as
/// (code, direction index): wait, then each directed code in the four straight
/// directions, then dash in all eight. An action list is resolved as two indices
/// into this list ("action ids"), and every per-action table below is indexed by
/// them. This is also the order [`legal_lists`] enumerates in.
const ACTS: usize = 33;
const ACT_LIST: [(u8, u8); ACTS] = {
    let mut list = [(0u8, NO_DIR); ACTS];
    let mut n = 1;
    let mut code = MOVE;
    while code < DASH {
        let mut d = 0;
        while d < 4 {
            list[n] = (code, d);
            n += 1;
            d += 1;
        }
        code += 1;
    }
    let mut d = 0;
    while d < 8 {
        list[n] = (DASH, d);
        n += 1;
        d += 1;
    }
    list
};

/// The action id of each written action ([`written_index`]), or [`MALFORMED`]
/// when its code and direction do not fit together.
const MALFORMED: u8 = ACTS as u8;
const ID_OF_WRITTEN: [u8; WRITTEN_COUNT] = {
    let mut table = [MALFORMED; WRITTEN_COUNT];
    let mut id = 0;
    while id < ACTS {
        let (code, dir) = ACT_LIST[id];
        table[code as usize * 9 + dir as usize] = id as u8;
        id += 1;
    }
    table
};

/// Per action id and cell: where the action's own movement goes, or [`NONE`]
/// (also when it would leave the yard). The dash target (phase 1, two steps) for
/// dashes; one step (phase 3) for moves and charges.
const TARGET: [[u8; CELLS]; ACTS] = {
    let mut t = [[NONE; CELLS]; ACTS];
    let mut id = 0;
    while id < ACTS {
        let (code, dir) = ACT_LIST[id];
        let steps = match code {
            DASH => 2,
            MOVE | CHARGE => 1,
            _ => 0,
        };
        let mut cell = 0;
        while steps > 0 && cell < CELLS {
            let (dr, dc) = DELTAS[dir as usize];
            let (r, c) = ((cell / N) as i32, (cell % N) as i32);
            t[id][cell] = cell_at(r + steps * dr as i32, c + steps * dc as i32);
            cell += 1;
        }
        id += 1;
    }
    t
};

/// Per action id (and [`MALFORMED`]): the cells from which it is legal as a first
/// action, waits aside. Every cell for a well-formed action, only those where it
/// lands inside the yard for a move or dash, none for a malformed one. (A charge
/// that would leave the yard is legal: it stays and attacks.)
const FIRST_FROM: [u64; ACTS + 1] = {
    let mut table = [0u64; ACTS + 1];
    let mut id = 0;
    while id < ACTS {
        let code = ACT_LIST[id].0;
        let mut cell = 0;
        while cell < CELLS {
            if !(code == MOVE || code == DASH) || TARGET[id][cell] != NONE {
                table[id] |= 1 << cell;
            }
            cell += 1;
        }
        id += 1;
    }
    table
};

/// Per action id: the byte of its skill in the waits word (all ones there), or 0
/// for wait and move; and its cooldown in that byte.
const SKILL_MASK: [u64; ACTS + 1] = skill_bytes(false);
const SKILL_COOLDOWN: [u64; ACTS + 1] = skill_bytes(true);

const fn skill_bytes(cooldown: bool) -> [u64; ACTS + 1] {
    let mut table = [0u64; ACTS + 1];
    let mut id = 0;
    while id < ACTS {
        let code = ACT_LIST[id].0;
        if code >= THRUST {
            let shift = 8 * (code - THRUST) as u32;
            let value = if cooldown {
                super::COOLDOWN[code as usize] as u64
            } else {
                0xff
            };
            table[id] = value << shift;
        }
        id += 1;
    }
    table
}

/// The six waits as the low six bytes of a word.
#[inline(always)]
fn waits_word(waits: &[u8; 6]) -> u64 {
    let [a, b, c, d, e, f] = *waits;
    u64::from_le_bytes([a, b, c, d, e, f, 0, 0])
}

#[inline(always)]
fn waits_bytes(word: u64) -> [u8; 6] {
    let [a, b, c, d, e, f, _, _] = word.to_le_bytes();
    [a, b, c, d, e, f]
}

/// Every byte of `word` less one, stopping at 0 (a turn of waiting passes).
#[inline(always)]
fn count_down(word: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte, set when the byte is not 0; the low seven bits
    // are added apart so that no carry crosses into the next byte.
    let nonzero = (((word & LOW7) + LOW7) | word) & HIGH;
    word - (nonzero >> 7)
}

/// A player's action list, read: its two action ids, whether it is legal (see
/// [`super::check_legal`], which gives the reason; the tests hold the two to the
/// same verdicts), and the player's waits after the turn (used skills get their
/// cooldown, the others count down; nothing is used when either list is
/// illegal). Branch-free: a few table lookups per action.
///
/// A search resolves each of a player's lists against every list of the other, so
/// it reads each list once ([`choose`]) and resolves pairs of choices
/// ([`resolve_choices`]) rather than pairs of written lists.
#[derive(Debug, Clone, Copy)]
pub(super) struct Choice {
    ids: [u8; 2],
    legal: bool,
    /// The waits word after the turn if the turn is played.
    waits: u64,
    /// The waits word after the turn if it is not (an illegal list).
    idle_waits: u64,
}

#[inline(always)]
pub(super) fn choose(p: &Player, actions: &Actions) -> Choice {
    let ids = [
        ID_OF_WRITTEN[written_index(actions[0])],
        ID_OF_WRITTEN[written_index(actions[1])],
    ];
    let skill = [
        SKILL_MASK[usize::from(ids[0])],
        SKILL_MASK[usize::from(ids[1])],
    ];
    let waits = waits_word(&p.waits);
    let legal = (FIRST_FROM[usize::from(ids[0])] >> cell_of(p.pos) & 1 != 0)
        & (ids[1] != MALFORMED)
        & (waits & (skill[0] | skill[1]) == 0)
        // The same skill twice: both masks on the same byte.
        & (skill[0] & skill[1] == 0);
    let idle_waits = count_down(waits);
    Choice {
        ids,
        legal,
        waits: idle_waits & !(skill[0] | skill[1])
            | SKILL_COOLDOWN[usize::from(ids[0])]
            | SKILL_COOLDOWN[usize::from(ids[1])],
        idle_waits,
    }
}

/// Legality alone, for the tests.
#[cfg(test)]
fn legal(p: &Player, actions: &Actions) -> bool {
    choose(p, actions).legal
}

/// Bits of [`KIND`]: what an action does in which phase.
const DASHES: u8 = 1;
const MOVES: u8 = 2;
const CHARGES: u8 = 4;
const THRUSTS: u8 = 8;
const GUARDS: u8 = 16;
/// Sweep, charge and break: attacks judged in phase 4.
const STRIKES: u8 = 32;
/// Break: not stopped by a guard.
const UNBLOCKABLE: u8 = 64;

/// Per action id: its [`KIND`] bits, and the damage and push length of its attack
/// (0 for actions that do not attack).
const KIND: [u8; ACTS] = {
    let mut k = [0u8; ACTS];
    let mut id = 0;
    while id < ACTS {
        k[id] = match ACT_LIST[id].0 {
            MOVE => MOVES,
            THRUST => THRUSTS,
            SWEEP => STRIKES,
            CHARGE => CHARGES | STRIKES,
            GUARD => GUARDS,
            BREAK => STRIKES | UNBLOCKABLE,
            DASH => DASHES,
            _ => 0,
        };
        id += 1;
    }
    k
};
const DAMAGE: [i8; ACTS] = per_id([0, 0, 2, 2, 3, 0, 2, 0]);
const PUSH: [i8; ACTS] = per_id([0, 0, 0, 1, 2, 0, 1, 0]);

/// A per-code value (wait, move, thrust, sweep, charge, guard, break, dash) as a
/// per-action-id table.
const fn per_id(by_code: [i8; 8]) -> [i8; ACTS] {
    let mut t = [0i8; ACTS];
    let mut id = 0;
    while id < ACTS {
        t[id] = by_code[ACT_LIST[id].0 as usize];
        id += 1;
    }
    t
}

/// Per action id and cell: the action's area (thrust, sweep, charge, break or
/// guard) from that cell, or 0 for actions without one.
const AREA: [[u64; CELLS]; ACTS] = {
    let mut t = [[0u64; CELLS]; ACTS];
    let mut id = 0;
    while id < ACTS {
        let (code, dir) = ACT_LIST[id];
        let mut cell = 0;
        while dir < 4 && cell < CELLS {
            t[id][cell] = area_mask(code, dir as usize, cell);
            cell += 1;
        }
        id += 1;
    }
    t
};

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

/// The cell index of a position inside the yard. Wrapping: a position just
/// outside gives a meaningless index that the callers select away, not a panic.
#[inline(always)]
fn cell_of((r, c): Cell) -> u8 {
    (r.wrapping_sub(1) as u8)
        .wrapping_mul(N as u8)
        .wrapping_add(c.wrapping_sub(1) as u8)
}

/// (row, column) of each cell index, by table (a division by 7 otherwise).
const RC: [Cell; 64] = {
    let mut t = [(0i8, 0i8); 64];
    let mut cell = 0;
    while cell < CELLS {
        t[cell] = ((cell / N) as i8 + 1, (cell % N) as i8 + 1);
        cell += 1;
    }
    t
};

#[inline(always)]
fn rc(cell: u8) -> Cell {
    RC[usize::from(cell & 63)]
}

/// `a` if `cond`, else `b`, written so that the optimiser keeps it a select: the
/// outcome of these tests follows the random actions of a search, so a branch
/// would be mispredicted about half the time.
#[inline(always)]
fn pick<T: Copy>(cond: bool, a: T, b: T) -> T {
    [b, a][usize::from(cond)]
}

/// Whether bit `cell` of `area` is set.
#[inline(always)]
fn covers(area: u64, cell: u8) -> bool {
    area >> cell & 1 != 0
}

/// The movement rules of phases 1 and 3: `t` holds each mover's target or
/// [`NONE`] for a player that does not move in this phase.
#[inline(always)]
fn movement(cells: &mut [u8; 2], t: [u8; 2]) -> [bool; 2] {
    // A mover is stopped by a shared target, or by the other's cell unless the
    // other leaves it and does not come to the mover's (a swap). For a player
    // that does not move, `t` is NONE, which is never a cell and never a target
    // of the other, so one formula covers one mover and two.
    let same_target = t[0] == t[1];
    let stays = [t[0] == NONE, t[1] == NONE];
    let go = both(|p| {
        let o = 1 - p;
        let into_other = (t[p] == cells[o]) & (stays[o] | (t[o] == cells[p]));
        !stays[p] & !same_target & !into_other
    });
    *cells = [pick(go[0], t[0], cells[0]), pick(go[1], t[1], cells[1])];
    go
}

/// The two players while a slot runs: their cells (always inside the yard: a
/// player pushed out keeps its last cell here, and [`Slot::run`] returns the
/// position outside) and their hp.
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
    u8::from(cond) * bit
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

    /// Resolves one pair of simultaneous actions, given by action id. Returns
    /// where both stand after the pushes and whether each is outside the yard
    /// when an attack took effect, `None` when none did: then both are inside, on
    /// `cells` (most slots: converting cells to coordinates only when needed saves
    /// work on the search's hot path).
    ///
    /// This is straight-line code over table rows: which of the two players
    /// dashes, guards, thrusts or strikes is data, not control flow, because in a
    /// search (and in random games) it changes from one call to the next and
    /// branches on it would be mispredicted about half the time.
    #[inline(always)]
    fn run<S: Sink>(
        &mut self,
        slot: u8,
        id: [usize; 2],
        sink: &mut S,
    ) -> Option<([Cell; 2], [bool; 2])> {
        let kind = [KIND[id[0]], KIND[id[1]]];
        let does = |p: usize, bits: u8| kind[p] & bits != 0;
        let start = both(|p| usize::from(self.cells[p]));
        let target = both(|p| TARGET[id[p]][start[p]]);
        let area = both(|p| AREA[id[p]][start[p]]);

        // Phase 1: dashes. A second-slot dash off the yard has target NONE.
        let t = both(|p| pick(does(p, DASHES), target[p], NONE));
        let moved = movement(&mut self.cells, t);
        self.emit(sink, slot, Phase::Dash, both(|p| flag(moved[p], MOVED)));

        // Phase 2: guards, then thrusts judged from here.
        let c = self.cells;
        let guard = both(|p| pick(does(p, GUARDS), area[p], 0));
        let thrust_reach = both(|p| does(p, THRUSTS) & covers(area[p], c[1 - p]));
        let thrust_blocked = both(|p| thrust_reach[p] & covers(guard[1 - p], c[p]));
        let thrust_hit = both(|p| thrust_reach[p] & !thrust_blocked[p]);
        let cancelled = both(|p| does(p, MOVES) & thrust_hit[1 - p]);
        self.emit(
            sink,
            slot,
            Phase::GuardThrust,
            both(|p| {
                flag(thrust_blocked[p], BLOCKED)
                    | flag(thrust_hit[p], HIT)
                    | flag(cancelled[p], CANCELLED)
            }),
        );

        // Phase 3: moves (unless cancelled) and charge movements.
        let t = both(|p| {
            let goes = does(p, MOVES | CHARGES) & !cancelled[p];
            pick(goes, target[p], NONE)
        });
        let moved = movement(&mut self.cells, t);
        self.emit(
            sink,
            slot,
            Phase::MoveCharge,
            both(|p| flag(moved[p], MOVED)),
        );

        // Phase 4: sweep, charge and break from where the attackers now stand.
        let c = self.cells;
        let strike_reach =
            both(|p| does(p, STRIKES) & covers(AREA[id[p]][usize::from(c[p])], c[1 - p]));
        let strike_blocked =
            both(|p| strike_reach[p] & !does(p, UNBLOCKABLE) & covers(guard[1 - p], c[p]));
        let strike_hit = both(|p| strike_reach[p] & !strike_blocked[p]);
        self.emit(
            sink,
            slot,
            Phase::Strike,
            both(|p| flag(strike_blocked[p], BLOCKED) | flag(strike_hit[p], HIT)),
        );

        // Phase 5: comparison. A player attacks at most once a slot.
        let hit = both(|p| thrust_hit[p] | strike_hit[p]);
        let damage = both(|p| pick(hit[p], DAMAGE[id[p]], 0));
        let both_hit = hit[0] & hit[1];
        let effective = [
            hit[0] & (!both_hit | (damage[0] >= damage[1])),
            hit[1] & (!both_hit | (damage[1] >= damage[0])),
        ];
        self.emit(
            sink,
            slot,
            Phase::Comparison,
            both(|p| flag(effective[p], EFFECTIVE)),
        );

        // Phase 6: damage (none on a tie) and pushes, one cell at a time, at most
        // two steps each. Written as two unconditional rounds: a player with no
        // push left stands still, and one pushed off the yard stops there.
        if !(effective[0] | effective[1]) {
            self.emit(sink, slot, Phase::PushDamage, [0, 0]);
            return None;
        }
        let tie = both_hit & (damage[0] == damage[1]);
        for p in 0..2 {
            self.hp[1 - p] -= pick(effective[p] & !tie, damage[p], 0);
        }
        let mut left = both(|o| pick(effective[1 - o], PUSH[id[1 - o]] as u8, 0));
        // The pusher's facing; `& 7` only keeps a wait's NO_DIR in bounds, and an
        // action that does not push has no push left to step with.
        let step = both(|o| DELTAS[usize::from(ACT_LIST[id[1 - o]].1) & 7]);
        let mut pos = [rc(c[0]), rc(c[1])];
        for _ in 0..2 {
            let going = both(|p| left[p] > 0);
            let next = both(|p| {
                let k = i8::from(going[p]);
                (pos[p].0 + k * step[p].0, pos[p].1 + k * step[p].1)
            });
            // Never both on one cell: the pushes stop before that.
            if next[0] == next[1] {
                break;
            }
            pos = next;
            left = both(|p| pick(super::inside(pos[p]), left[p].saturating_sub(1), 0));
        }
        let out = both(|p| !super::inside(pos[p]));
        self.cells = both(|p| pick(out[p], self.cells[p], cell_of(pos[p])));
        if S::ACTIVE {
            sink.event(Event {
                slot,
                phase: Phase::PushDamage,
                pos,
                hp: self.hp,
                flags: [flag(out[0], OUT), flag(out[1], OUT)],
            });
        }
        Some((pos, out))
    }
}

/// Resolves one turn, sending one event per phase of every performed slot to
/// `sink`.
#[inline]
pub fn resolve_traced<S: Sink>(state: &State, actions: &[Actions; 2], sink: &mut S) -> TurnResult {
    let choice = [
        choose(&state.players[0], &actions[0]),
        choose(&state.players[1], &actions[1]),
    ];
    resolve_choices(state, choice, sink)
}

/// [`resolve_traced`] for lists already read by [`choose`] (each for its own
/// player in `state`).
#[inline(always)]
pub(super) fn resolve_choices<S: Sink>(
    state: &State,
    choice: [Choice; 2],
    sink: &mut S,
) -> TurnResult {
    let mut next = *state;
    next.turn = state.turn + 1;
    if !(choice[0].legal & choice[1].legal) {
        for p in 0..2 {
            next.players[p].waits = waits_bytes(choice[p].idle_waits);
        }
        let winner = match (choice[0].legal, choice[1].legal) {
            (true, false) => Winner::P1,
            (false, true) => Winner::P2,
            _ => Winner::Draw,
        };
        return TurnResult {
            next,
            outcome: Outcome::Ended(winner, Reason::Illegal),
        };
    }
    for p in 0..2 {
        next.players[p].waits = waits_bytes(choice[p].waits);
    }
    if S::ACTIVE {
        by_slots(state, next, choice, sink)
    } else {
        by_table(state, next, choice)
    }
}

/// Both slots of a legal turn by [`Slot::run`], then the end of the turn.
#[inline(always)]
fn by_slots<S: Sink>(state: &State, next: State, choice: [Choice; 2], sink: &mut S) -> TurnResult {
    let mut s = Slot {
        cells: [cell_of(state.players[0].pos), cell_of(state.players[1].pos)],
        hp: [state.players[0].hp, state.players[1].hp],
    };
    let mut pushed = None;
    let mut lost = [false; 2];
    let mut dead = [false; 2];
    for slot in 0..2 {
        let ids = [
            usize::from(choice[0].ids[slot]),
            usize::from(choice[1].ids[slot]),
        ];
        pushed = s.run(slot as u8, ids, sink);
        let out = pushed.map_or([false; 2], |(_, out)| out);
        dead = [s.hp[0] <= 0, s.hp[1] <= 0];
        lost = [dead[0] | out[0], dead[1] | out[1]];
        if lost[0] | lost[1] {
            break;
        }
    }
    let pos = pushed.map_or_else(|| [rc(s.cells[0]), rc(s.cells[1])], |(pos, _)| pos);
    finish(state, next, pos, s.hp, lost, dead)
}

/// The end of a legal turn: where both stand and their hp, and who lost in the
/// last slot performed (and whether by hp); blessing and the result.
#[inline(always)]
fn finish(
    state: &State,
    mut next: State,
    pos: [Cell; 2],
    hp: [i8; 2],
    lost: [bool; 2],
    dead: [bool; 2],
) -> TurnResult {
    for p in 0..2 {
        next.players[p].pos = pos[p];
        next.players[p].hp = hp[p];
    }
    let outcome = if lost[0] | lost[1] {
        let winner = match lost {
            [true, true] => Winner::Draw,
            [true, false] => Winner::P2,
            _ => Winner::P1,
        };
        let by_hp = (lost[0] & dead[0]) | (lost[1] & dead[1]);
        Outcome::Ended(winner, if by_hp { Reason::Hp } else { Reason::Out })
    } else {
        for p in &mut next.players {
            p.blessing += u8::from(p.pos == state.spring);
        }
        let [b0, b1] = [next.players[0].blessing, next.players[1].blessing];
        let won = [b0 >= WINNING_BLESSING, b1 >= WINNING_BLESSING];
        if won[0] | won[1] {
            let winner = match won {
                [true, true] => Winner::Draw,
                [true, false] => Winner::P1,
                _ => Winner::P2,
            };
            Outcome::Ended(winner, Reason::Blessing)
        } else if state.turn >= LAST_TURN {
            let key = |p: &Player| (p.blessing, p.hp);
            let winner = match key(&next.players[0]).cmp(&key(&next.players[1])) {
                std::cmp::Ordering::Greater => Winner::P1,
                std::cmp::Ordering::Less => Winner::P2,
                std::cmp::Ordering::Equal => Winner::Draw,
            };
            Outcome::Ended(winner, Reason::Turns)
        } else {
            Outcome::Ongoing
        }
    };
    TurnResult { next, outcome }
}

/// The eight symmetries of the square yard, as maps of 0-based (row, column):
/// the identity, three quarter turns, four reflections. The rules have no
/// favoured direction, so a slot resolved in a turned or mirrored yard, with
/// turned or mirrored actions, has the turned or mirrored outcome; the test
/// `the_slot_table_is_the_slot_code` checks every entry against [`Slot::run`].
const SYMMETRIES: usize = 8;

const fn map_rc(sym: usize, r: i32, c: i32) -> (i32, i32) {
    let m = N as i32 - 1;
    match sym {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        _ => (m - c, m - r),
    }
}

/// The symmetry that undoes each one: the quarter turns undo each other, the
/// rest undo themselves.
const INVERSE: [usize; SYMMETRIES] = [0, 3, 2, 1, 4, 5, 6, 7];

/// Each cell's image under each symmetry.
const CELL_IMAGE: [[u8; 64]; SYMMETRIES] = {
    let mut t = [[0u8; 64]; SYMMETRIES];
    let mut sym = 0;
    while sym < SYMMETRIES {
        let mut cell = 0;
        while cell < CELLS {
            let (r, c) = map_rc(sym, (cell / N) as i32, (cell % N) as i32);
            t[sym][cell] = cell_at(r, c);
            cell += 1;
        }
        sym += 1;
    }
    t
};

/// Each action id's image under each symmetry: the same code, its direction
/// turned or mirrored (the straight directions go to straight ones, diagonals
/// to diagonals).
const ID_IMAGE: [[u8; ACTS]; SYMMETRIES] = {
    let mut t = [[0u8; ACTS]; SYMMETRIES];
    let mut sym = 0;
    while sym < SYMMETRIES {
        let mut id = 0;
        while id < ACTS {
            let (code, dir) = ACT_LIST[id];
            t[sym][id] = id as u8;
            if dir != NO_DIR {
                // A direction's image is the difference of two cells' images.
                let (dr, dc) = DELTAS[dir as usize];
                let (r0, c0) = map_rc(sym, 3, 3);
                let (r1, c1) = map_rc(sym, 3 + dr as i32, 3 + dc as i32);
                let mut other = 0;
                while other < ACTS {
                    let (code2, dir2) = ACT_LIST[other];
                    if code2 == code
                        && dir2 != NO_DIR
                        && DELTAS[dir2 as usize].0 as i32 == r1 - r0
                        && DELTAS[dir2 as usize].1 as i32 == c1 - c0
                    {
                        t[sym][id] = other as u8;
                    }
                    other += 1;
                }
            }
            id += 1;
        }
        sym += 1;
    }
    t
};

/// Pairs of cells (player 1's, player 2's) as `c1 * 64 + c2`: a shift, not a
/// multiply, on the turn's chain of dependent lookups.
const PAIRS: usize = 64 * 64;
const ID_PAIRS: usize = ACTS * ACTS;

const fn pair_of(c1: usize, c2: usize) -> usize {
    c1 << 6 | c2
}

/// Whether a pair index is two distinct cells of the yard (players never share
/// one).
const fn is_pair(pair: usize) -> bool {
    let (c1, c2) = (pair >> 6, pair & 63);
    c1 < CELLS && c2 < CELLS && c1 != c2
}

/// A slot is also unchanged when the two players trade places and actions, so a
/// "view" of a pair of cells is one of the eight symmetries (low three bits),
/// possibly followed by that trade (bit 3): sixteen views.
const VIEWS: usize = 2 * SYMMETRIES;
const SWAP: usize = SYMMETRIES;

/// The image of a pair of cells under a view.
const fn pair_image(view: usize, pair: usize) -> usize {
    let image = &CELL_IMAGE[view % SYMMETRIES];
    let (a, b) = (image[pair >> 6] as usize, image[pair & 63] as usize);
    if view & SWAP == 0 {
        pair_of(a, b)
    } else {
        pair_of(b, a)
    }
}

/// For each pair of distinct cells: its orbit under the sixteen views (bits 4
/// and up), and the view taking it to the orbit's smallest pair, the orbit's
/// representative (low four bits). Orbits are numbered in the order of their
/// representatives. Other indices never occur in a game: orbit 0.
const ORBIT_OF_PAIR: [u16; PAIRS] = {
    let mut t = [0u16; PAIRS];
    let mut orbits = 0;
    let mut pair = 0;
    while pair < PAIRS {
        if is_pair(pair) {
            let mut best = pair;
            let mut best_view = 0;
            let mut view = 1;
            while view < VIEWS {
                let image = pair_image(view, pair);
                if image < best {
                    best = image;
                    best_view = view;
                }
                view += 1;
            }
            if best == pair {
                t[pair] = (orbits << 4) as u16;
                orbits += 1;
            } else {
                // The representative is smaller, so it is numbered already.
                t[pair] = t[best] & !15 | best_view as u16;
            }
        }
        pair += 1;
    }
    t
};

/// Whether `pair` is its orbit's representative.
const fn is_representative(pair: usize) -> bool {
    is_pair(pair) && ORBIT_OF_PAIR[pair] & 15 == 0
}

/// How many orbits (171), and the representative of each.
const ORBITS: usize = {
    let mut count = 0;
    let mut pair = 0;
    while pair < PAIRS {
        count += is_representative(pair) as usize;
        pair += 1;
    }
    count
};
const REPRESENTATIVE: [u16; ORBITS] = {
    let mut t = [0u16; ORBITS];
    let mut pair = 0;
    while pair < PAIRS {
        if is_representative(pair) {
            t[(ORBIT_OF_PAIR[pair] >> 4) as usize] = pair as u16;
        }
        pair += 1;
    }
    t
};

/// Per view, per real player, per action id: that action's part of the table
/// index, `id' * 33` or `id'`, where `id'` is its image and the factor depends on
/// which player of the representative the real player becomes.
const ID_PART: [[[u16; ACTS]; 2]; VIEWS] = {
    let mut t = [[[0u16; ACTS]; 2]; VIEWS];
    let mut view = 0;
    while view < VIEWS {
        let mut p = 0;
        while p < 2 {
            let becomes = p ^ (view / SWAP);
            let mut id = 0;
            while id < ACTS {
                let image = ID_IMAGE[view % SYMMETRIES][id] as u16;
                t[view][p][id] = if becomes == 0 {
                    image * ACTS as u16
                } else {
                    image
                };
                id += 1;
            }
            p += 1;
        }
        view += 1;
    }
    t
};

/// Per view: each cell of the representative's yard seen back in the real one.
const CELL_BACK: [[u8; 64]; VIEWS] = {
    let mut t = [[0u8; 64]; VIEWS];
    let mut view = 0;
    while view < VIEWS {
        t[view] = CELL_IMAGE[INVERSE[view % SYMMETRIES]];
        view += 1;
    }
    t
};

/// An entry that is not a result (no cell is 63): a player is pushed out of the
/// yard in that slot (the game ends; rare), and the turn is resolved by
/// [`Slot::run`] instead.
const PUSHED_OUT: u16 = 0xffff;

static SLOT_TABLE: std::sync::OnceLock<Box<[u16]>> = std::sync::OnceLock::new();

/// One slot's outcome for each orbit of pairs of cells and each pair of action
/// ids, from the orbit's representative: a byte per player (first player low),
/// its cell after the slot in the low six bits and the damage it takes (0, 2 or
/// 3) in the top two; or [`PUSHED_OUT`]. 171 orbits x 1089 pairs of actions x 2 bytes: 372 KB, which
/// stays in the processor's second-level cache (without the symmetries it would
/// be 5.1 MB). Built on first use by [`Slot::run`].
#[inline(always)]
fn slot_table() -> &'static [u16] {
    match SLOT_TABLE.get() {
        Some(table) => table,
        None => build_slot_table(),
    }
}

/// Builds the slot table now rather than at the first event-free resolution
/// (about 3 ms): for callers on a clock, such as a bot between INIT (untimed)
/// and READY (timed).
pub fn prepare() {
    slot_table();
}

#[cold]
fn build_slot_table() -> &'static [u16] {
    SLOT_TABLE.get_or_init(|| {
        let mut table = vec![0u16; ORBITS * ID_PAIRS].into_boxed_slice();
        for (orbit, &pair) in REPRESENTATIVE.iter().enumerate() {
            let cells = [(pair >> 6) as u8, (pair & 63) as u8];
            for id0 in 0..ACTS {
                for id1 in 0..ACTS {
                    let mut s = Slot {
                        cells,
                        hp: [super::START_HP; 2],
                    };
                    let pushed = s.run(0, [id0, id1], &mut ());
                    let out = pushed.is_some_and(|(_, out)| out[0] | out[1]);
                    let damage = |p: usize| (super::START_HP - s.hp[p]) as u16;
                    table[orbit * ID_PAIRS + id0 * ACTS + id1] = if out {
                        PUSHED_OUT
                    } else {
                        let byte = |p: usize| u16::from(s.cells[p]) | damage(p) << 6;
                        byte(0) | byte(1) << 8
                    };
                }
            }
        }
        table
    })
}

/// One slot by [`slot_table`]: the cells and action ids seen from the orbit's
/// representative, one lookup, and the outcome seen back: both cells after the
/// slot and both hp. `None` when a player is pushed out of the yard.
#[inline(always)]
fn look_up(
    table: &[u16],
    cells: [u8; 2],
    ids: [usize; 2],
    hp: [i8; 2],
) -> Option<([u8; 2], [i8; 2])> {
    let word = ORBIT_OF_PAIR[pair_of(usize::from(cells[0]), usize::from(cells[1]))];
    let view = usize::from(word & 15);
    let part = &ID_PART[view];
    let index = usize::from(word >> 4) * ID_PAIRS
        + usize::from(part[0][ids[0]])
        + usize::from(part[1][ids[1]]);
    let entry = table[index];
    if entry == PUSHED_OUT {
        return None;
    }
    // A view that trades the players trades their bytes.
    let bytes = entry.rotate_left(8 * (view / SWAP) as u32).to_le_bytes();
    let back = &CELL_BACK[view];
    Some((
        both(|p| back[usize::from(bytes[p] & 63)]),
        both(|p| hp[p] - (bytes[p] >> 6) as i8),
    ))
}

/// Both slots of a legal turn by [`look_up`], and the end of the turn. A turn in
/// which a player is pushed out (rare: it ends the game) is resolved again by
/// the slot code, which knows where outside the player stands.
#[inline(always)]
fn by_table(state: &State, next: State, choice: [Choice; 2]) -> TurnResult {
    let table = slot_table();
    let mut cells = [cell_of(state.players[0].pos), cell_of(state.players[1].pos)];
    let mut hp = [state.players[0].hp, state.players[1].hp];
    let mut dead = [false; 2];
    for slot in 0..2 {
        let ids = both(|p| usize::from(choice[p].ids[slot]));
        let Some(after) = look_up(table, cells, ids, hp) else {
            return by_slots(state, next, choice, &mut ());
        };
        (cells, hp) = after;
        dead = [hp[0] <= 0, hp[1] <= 0];
        if dead[0] | dead[1] {
            break;
        }
    }
    finish(state, next, [rc(cells[0]), rc(cells[1])], hp, dead, dead)
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

/// Resolves every line of a case. The answers come from the event-free path (the
/// slot table, as searches and bots resolve turns) and the digest covers every
/// event of the traced path (the slot code), so a differential run compares both
/// with the reference. Were the two paths to part, the answer would follow the
/// table, and the reference would catch whichever is wrong.
pub fn resolve(case: &Case) -> (Vec<TurnResult>, u64) {
    let mut digest = Digest::new();
    let answer = case
        .iter()
        .enumerate()
        .map(|(i, turn): (usize, &Turn)| {
            digest.push(line_marker(i));
            resolve_traced(&turn.state, &turn.actions, &mut digest);
            resolve_turn(&turn.state, &turn.actions)
        })
        .collect();
    (answer, digest.value())
}

/// Every legal action list of `player` in `state`, into `out` (cleared first).
/// At most 33 choices a slot, so at most 1089 lists.
pub fn legal_lists(state: &State, player: usize, out: &mut Vec<Actions>) {
    out.clear();
    let me = &state.players[player];
    let cell = cell_of(me.pos);
    let waits = waits_word(&me.waits);
    // The same tables as `choose`: a skill must not be waiting, a first move or
    // dash must land inside the yard, and one skill may not be used twice.
    let ready = |id: usize| waits & SKILL_MASK[id] == 0;
    let action = |id: usize| {
        let (code, dir) = ACT_LIST[id];
        Action {
            code,
            dir: Dir::ALL.get(usize::from(dir)).copied(),
        }
    };
    for first in (0..ACTS).filter(|&id| ready(id) && FIRST_FROM[id] >> cell & 1 != 0) {
        for second in (0..ACTS).filter(|&id| ready(id) && SKILL_MASK[first] & SKILL_MASK[id] == 0) {
            out.push([action(first), action(second)]);
        }
    }
}

/// The area of `code` facing `d` from `from`, as cells: the geometry tables, for
/// the tests.
#[cfg(test)]
fn area_cells(code: u8, d: Dir, from: Cell) -> Vec<Cell> {
    let mask = area_mask(code, d as usize, usize::from(cell_of(from)));
    (0..CELLS as u8)
        .filter(|&c| mask >> c & 1 != 0)
        .map(rc)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::{check_legal, parse_actions};

    /// Every slot the game can present (two distinct cells, two action ids),
    /// looked up in the table as the turn does, against the slot code itself.
    #[test]
    fn the_slot_table_is_the_slot_code() {
        let table = slot_table();
        let mut pushed_out = 0;
        for c0 in 0..CELLS as u8 {
            for c1 in (0..CELLS as u8).filter(|&c| c != c0) {
                for id0 in 0..ACTS {
                    for id1 in 0..ACTS {
                        let hp = [10, 9];
                        let mut s = Slot {
                            cells: [c0, c1],
                            hp,
                        };
                        let pushed = s.run(0, [id0, id1], &mut ());
                        let out = pushed.is_some_and(|(_, out)| out[0] | out[1]);
                        match look_up(table, [c0, c1], [id0, id1], hp) {
                            None => {
                                assert!(out, "{c0} {c1} {id0} {id1}: not pushed out");
                                pushed_out += 1;
                            }
                            Some(found) => {
                                assert!(!out, "{c0} {c1} {id0} {id1}: pushed out");
                                assert_eq!(found, (s.cells, s.hp), "{c0} {c1} {id0} {id1}");
                            }
                        }
                    }
                }
            }
        }
        // Pushing out happens, and the table sends those slots to the slot code.
        assert!(pushed_out > 1000, "{pushed_out}");
        assert_eq!(ORBITS, 171);
    }

    #[test]
    fn symmetries_are_permutations_undone_by_their_inverse() {
        for sym in 0..SYMMETRIES {
            for cell in 0..CELLS {
                let image = CELL_IMAGE[sym][cell];
                assert!(usize::from(image) < CELLS);
                assert_eq!(
                    usize::from(CELL_IMAGE[INVERSE[sym]][usize::from(image)]),
                    cell
                );
            }
            let mut ids: Vec<u8> = ID_IMAGE[sym].to_vec();
            ids.sort();
            assert_eq!(ids, (0..ACTS as u8).collect::<Vec<_>>(), "symmetry {sym}");
        }
    }

    #[test]
    fn areas_match_the_rule_text() {
        let mut sweep = area_cells(SWEEP, Dir::R, (4, 3));
        sweep.sort();
        assert_eq!(sweep, [(3, 3), (3, 4), (4, 4), (5, 3), (5, 4)]);
        let mut guard = area_cells(GUARD, Dir::U, (2, 2));
        guard.sort();
        assert_eq!(guard, [(1, 1), (1, 2), (1, 3)]);
        assert_eq!(area_cells(THRUST, Dir::L, (1, 2)), [(1, 1)]);
        assert_eq!(area_cells(BREAK, Dir::D, (7, 7)), []);
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
            // Legality does not depend on the opponent, who stands aside.
            let mut state = State::initial((4, 4), pos, (5, 5));
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
