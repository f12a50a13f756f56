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
//!   processor's second-level cache (`lockstep bench duel` measures both
//!   paths; dated figures in `docs/notes/`). [`prepare`] builds the table
//!   ahead of a clock.
//!
//! [`solve`] answers by the table and digests the events of the slot code, so
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

mod slot;
mod symmetry;
mod tables;

pub use slot::*;
pub use symmetry::*;
pub(in crate::duel) use tables::*;

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
pub fn solve(case: &Case) -> crate::Run<Vec<TurnResult>> {
    solve_with(case, &mut ())
}

/// `solve`, with each event of the traced path given to `sink` as well as
/// to the digest, each line's after `sink.line(i)`: what `lockstep verify`
/// counts the rule branches from, in the same run that answers. With `()`
/// the sink costs nothing, and this is `solve`.
pub fn solve_with<S: Sink>(case: &Case, sink: &mut S) -> crate::Run<Vec<TurnResult>> {
    let mut digest = Digest::new();
    let answer = case
        .iter()
        .enumerate()
        .map(|(i, turn): (usize, &Turn)| {
            digest.push(line_marker(i));
            sink.line(i);
            resolve_traced(&turn.state, &turn.actions, &mut Both(&mut digest, sink));
            resolve_turn(&turn.state, &turn.actions)
        })
        .collect();
    crate::Run {
        answer,
        digest: digest.value(),
    }
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
mod tests;
