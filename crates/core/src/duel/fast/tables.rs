//! The action tables: cells as indices, the 33 action ids, areas, movement
//! targets, legality bits and the waits as one word, built at compile time
//! from the rules' geometry.

use super::*;

pub(super) const N: usize = SIZE as usize;
pub(super) const CELLS: usize = N * N;
/// "No target": a move, dash or charge movement that would leave the yard.
pub(super) const NONE: u8 = 64;
/// The direction index of an action written without a direction.
pub(super) const NO_DIR: u8 = 8;

pub(super) const DELTAS: [(i8, i8); 8] = {
    let mut d = [(0, 0); 8];
    let mut i = 0;
    while i < 8 {
        d[i] = Dir::ALL[i].delta();
        i += 1;
    }
    d
};

pub(super) const fn cell_at(r: i32, c: i32) -> u8 {
    if r >= 0 && r < N as i32 && c >= 0 && c < N as i32 {
        (r * N as i32 + c) as u8
    } else {
        NONE
    }
}

pub(super) const fn bit_at(r: i32, c: i32) -> u64 {
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
pub(super) const fn area_mask(code: u8, d: usize, cell: usize) -> u64 {
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
pub(super) const WRITTEN_COUNT: usize = 9 * 9;

#[inline(always)]
pub(super) fn written_index(a: Action) -> usize {
    usize::from(a.code.min(8)) * 9 + usize::from(a.dir.map_or(NO_DIR, |d| d as u8))
}

/// The well-formed actions (a code with the kind of direction it takes), as
/// (code, direction index): wait, then each directed code in the four straight
/// directions, then dash in all eight. An action list is resolved as two indices
/// into this list ("action ids"), and every per-action table below is indexed by
/// them. This is also the order [`legal_lists`] enumerates in.
pub(super) const ACTS: usize = 33;
pub(super) const ACT_LIST: [(u8, u8); ACTS] = {
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
pub(super) const MALFORMED: u8 = ACTS as u8;
pub(super) const ID_OF_WRITTEN: [u8; WRITTEN_COUNT] = {
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
pub(super) const TARGET: [[u8; CELLS]; ACTS] = {
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
pub(super) const FIRST_FROM: [u64; ACTS + 1] = {
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
pub(super) const SKILL_MASK: [u64; ACTS + 1] = skill_bytes(false);
pub(super) const SKILL_COOLDOWN: [u64; ACTS + 1] = skill_bytes(true);

pub(super) const fn skill_bytes(cooldown: bool) -> [u64; ACTS + 1] {
    let mut table = [0u64; ACTS + 1];
    let mut id = 0;
    while id < ACTS {
        let code = ACT_LIST[id].0;
        if code >= THRUST {
            let shift = 8 * (code - THRUST) as u32;
            let value = if cooldown {
                super::super::COOLDOWN[code as usize] as u64
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
pub(super) fn waits_word(waits: &[u8; 6]) -> u64 {
    let [a, b, c, d, e, f] = *waits;
    u64::from_le_bytes([a, b, c, d, e, f, 0, 0])
}

#[inline(always)]
pub(super) fn waits_bytes(word: u64) -> [u8; 6] {
    let [a, b, c, d, e, f, _, _] = word.to_le_bytes();
    [a, b, c, d, e, f]
}

/// Every byte of `word` less one, stopping at 0 (a turn of waiting passes).
#[inline(always)]
pub(super) fn count_down(word: u64) -> u64 {
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
pub(in crate::duel) struct Choice {
    pub(super) ids: [u8; 2],
    pub(super) legal: bool,
    /// The waits word after the turn if the turn is played.
    pub(super) waits: u64,
    /// The waits word after the turn if it is not (an illegal list).
    pub(super) idle_waits: u64,
}

#[inline(always)]
pub(in crate::duel) fn choose(p: &Player, actions: &Actions) -> Choice {
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
pub(super) fn legal(p: &Player, actions: &Actions) -> bool {
    choose(p, actions).legal
}

/// Bits of [`KIND`]: what an action does in which phase.
pub(super) const DASHES: u8 = 1;
pub(super) const MOVES: u8 = 2;
pub(super) const CHARGES: u8 = 4;
pub(super) const THRUSTS: u8 = 8;
pub(super) const GUARDS: u8 = 16;
/// Sweep, charge and break: attacks judged in phase 4.
pub(super) const STRIKES: u8 = 32;
/// Break: not stopped by a guard.
pub(super) const UNBLOCKABLE: u8 = 64;

/// Per action id: its [`KIND`] bits, and the damage and push length of its attack
/// (0 for actions that do not attack).
pub(super) const KIND: [u8; ACTS] = {
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
pub(super) const DAMAGE: [i8; ACTS] = per_id([0, 0, 2, 2, 3, 0, 2, 0]);
pub(super) const PUSH: [i8; ACTS] = per_id([0, 0, 0, 1, 2, 0, 1, 0]);

/// A per-code value (wait, move, thrust, sweep, charge, guard, break, dash) as a
/// per-action-id table.
pub(super) const fn per_id(by_code: [i8; 8]) -> [i8; ACTS] {
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
pub(super) const AREA: [[u64; CELLS]; ACTS] = {
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
