//! The slot table: every slot's outcome, one pair of cells per orbit under
//! the yard's eight symmetries and the trade of the two players, and the
//! turn resolved by looking slots up in it.

use super::*;

/// The eight symmetries of the square yard, as maps of 0-based (row, column):
/// the identity, three quarter turns, four reflections. The rules have no
/// favoured direction, so a slot resolved in a turned or mirrored yard, with
/// turned or mirrored actions, has the turned or mirrored outcome; the test
/// `the_slot_table_is_the_slot_code` checks every entry against [`Slot::resolve_slot`].
pub(super) const SYMMETRIES: usize = 8;

pub(super) const fn map_rc(sym: usize, r: i32, c: i32) -> (i32, i32) {
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
pub(super) const INVERSE: [usize; SYMMETRIES] = [0, 3, 2, 1, 4, 5, 6, 7];

/// Each cell's image under each symmetry.
pub(super) const CELL_IMAGE: [[u8; 64]; SYMMETRIES] = {
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
pub(super) const ID_IMAGE: [[u8; ACTS]; SYMMETRIES] = {
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
pub(super) const PAIRS: usize = 64 * 64;
pub(super) const ID_PAIRS: usize = ACTS * ACTS;

pub(super) const fn pair_of(c1: usize, c2: usize) -> usize {
    c1 << 6 | c2
}

/// Whether a pair index is two distinct cells of the yard (players never share
/// one).
pub(super) const fn is_pair(pair: usize) -> bool {
    let (c1, c2) = (pair >> 6, pair & 63);
    c1 < CELLS && c2 < CELLS && c1 != c2
}

/// A slot is also unchanged when the two players trade places and actions, so a
/// "view" of a pair of cells is one of the eight symmetries (low three bits),
/// possibly followed by that trade (bit 3): sixteen views.
pub(super) const VIEWS: usize = 2 * SYMMETRIES;
pub(super) const SWAP: usize = SYMMETRIES;

/// The image of a pair of cells under a view.
pub(super) const fn pair_image(view: usize, pair: usize) -> usize {
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
pub(super) const ORBIT_OF_PAIR: [u16; PAIRS] = {
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
pub(super) const fn is_representative(pair: usize) -> bool {
    is_pair(pair) && ORBIT_OF_PAIR[pair] & 15 == 0
}

/// How many orbits (171), and the representative of each.
pub(super) const ORBITS: usize = {
    let mut count = 0;
    let mut pair = 0;
    while pair < PAIRS {
        count += is_representative(pair) as usize;
        pair += 1;
    }
    count
};
pub(super) const REPRESENTATIVE: [u16; ORBITS] = {
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
pub(super) const ID_PART: [[[u16; ACTS]; 2]; VIEWS] = {
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
pub(super) const CELL_BACK: [[u8; 64]; VIEWS] = {
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
/// [`Slot::resolve_slot`] instead.
pub(super) const PUSHED_OUT: u16 = 0xffff;

pub(super) static SLOT_TABLE: std::sync::OnceLock<Box<[u16]>> = std::sync::OnceLock::new();

/// One slot's outcome for each orbit of pairs of cells and each pair of action
/// ids, from the orbit's representative: a byte per player (first player low),
/// its cell after the slot in the low six bits and the damage it takes (0, 2 or
/// 3) in the top two; or [`PUSHED_OUT`]. 171 orbits x 1089 pairs of actions x 2 bytes: 372 KB, which
/// stays in the processor's second-level cache (without the symmetries it would
/// be 5.1 MB). Built on first use by [`Slot::resolve_slot`].
#[inline(always)]
pub(super) fn slot_table() -> &'static [u16] {
    match SLOT_TABLE.get() {
        Some(table) => table,
        None => build_slot_table(),
    }
}

/// Builds the slot table now rather than at the first event-free resolution
/// (a few ms): for callers on a clock, such as a bot between INIT (untimed)
/// and READY (timed).
pub fn prepare() {
    slot_table();
}

#[cold]
pub(super) fn build_slot_table() -> &'static [u16] {
    SLOT_TABLE.get_or_init(|| {
        let mut table = vec![0u16; ORBITS * ID_PAIRS].into_boxed_slice();
        for (orbit, &pair) in REPRESENTATIVE.iter().enumerate() {
            let cells = [(pair >> 6) as u8, (pair & 63) as u8];
            for id0 in 0..ACTS {
                for id1 in 0..ACTS {
                    let mut s = Slot {
                        cells,
                        hp: [super::super::START_HP; 2],
                    };
                    let pushed = s.resolve_slot(0, [id0, id1], &mut ());
                    let out = pushed.is_some_and(|(_, out)| out[0] | out[1]);
                    let damage = |p: usize| (super::super::START_HP - s.hp[p]) as u16;
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
pub(super) fn look_up(
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
pub(super) fn by_table(state: &State, next: State, choice: [Choice; 2]) -> TurnResult {
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
