//! The fast checkers validator (and, in `perft.rs`, perft): bitboards, no move
//! lists.
//!
//! - A position is three `u32`s (Red, White, kings), bit `s - 1` for square `s`.
//! - The neighbour and jump tables are computed at compile time from the spec's
//!   numbering, and so are the shift masks: moving a set of squares one step in a
//!   direction is two or three masked shifts (by 3, 4 or 5 bits, depending on the
//!   row's parity and the edge).
//! - "Does the side to move have a jump?" is answered for all pieces at once with
//!   those shifts: the pieces whose neighbour in a direction is an opponent and
//!   whose square two steps away is empty.
//! - A given move is checked square by square against the tables; no list of legal
//!   moves is ever built. The first invalid move ends the instance.
//! - Perft (`perft.rs`) generates children onto one shared stack (no allocation per node) and
//!   counts the last ply in bulk: with no jump, the number of simple moves is a
//!   popcount per direction; with a jump, the jump sequences are generated onto the
//!   stack, counted and dropped.

use super::{Answer, Board, Case, Instance, InstanceTrace, Ruling, Side};
use crate::digest::Digest;
use crate::Run;

const NONE: u8 = u8::MAX;

/// Directions, as (row change, column change): up-left, up-right, down-left,
/// down-right. `3 - d` is the opposite of `d`.
const DIRS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
/// Red men move down (rows grow), White men up; kings both ways.
const RED_MAN_DIRS: u8 = 0b1100;
const WHITE_MAN_DIRS: u8 = 0b0011;
const KING_DIRS: u8 = 0b1111;

/// Each side's promotion row as bits (square `s` is bit `s - 1`), from
/// [`Side::promotes_on`].
const fn promotion_mask(side: Side) -> u32 {
    let mut mask = 0;
    let mut square = 1;
    while square <= 32 {
        if side.promotes_on(square) {
            mask |= 1 << (square - 1);
        }
        square += 1;
    }
    mask
}
const RED_PROMOTION: u32 = promotion_mask(Side::Red);
const WHITE_PROMOTION: u32 = promotion_mask(Side::White);

/// The bit index (0..32) of the dark square at (row, col), if it is one.
const fn index_of(row: i32, col: i32) -> u8 {
    if row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 == 0 {
        NONE
    } else {
        (row * 4 + col / 2) as u8
    }
}

const fn coords(index: usize) -> (i32, i32) {
    let row = (index / 4) as i32;
    let col = 2 * (index % 4) as i32 + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

/// `TABLE[d][b]`: the square `distance` steps from bit `b` in direction `d`.
const fn table(distance: i32) -> [[u8; 32]; 4] {
    let mut out = [[NONE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut b = 0;
        while b < 32 {
            let (row, col) = coords(b);
            out[d][b] = index_of(row + DIRS[d].0 * distance, col + DIRS[d].1 * distance);
            b += 1;
        }
        d += 1;
    }
    out
}

const STEP: [[u8; 32]; 4] = table(1);
const JUMP: [[u8; 32]; 4] = table(2);

/// `SHIFT_MASKS[d][k]`: the squares whose neighbour in direction `d` is `k + 3` bits
/// away (up, the index falls; down, it grows).
const SHIFT_MASKS: [[u32; 3]; 4] = {
    let mut out = [[0u32; 3]; 4];
    let mut d = 0;
    while d < 4 {
        let mut b = 0;
        while b < 32 {
            let to = STEP[d][b];
            if to != NONE {
                let distance = (to as usize).abs_diff(b);
                out[d][distance - 3] |= 1 << b;
            }
            b += 1;
        }
        d += 1;
    }
    out
};

/// The squares one step from `set` in direction `d` (those on the board).
#[inline(always)]
fn shift(set: u32, d: usize) -> u32 {
    let m = &SHIFT_MASKS[d];
    if d >= 2 {
        (set & m[0]) << 3 | (set & m[1]) << 4 | (set & m[2]) << 5
    } else {
        (set & m[0]) >> 3 | (set & m[1]) >> 4 | (set & m[2]) >> 5
    }
}

/// A position with the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Position {
    red: u32,
    white: u32,
    kings: u32,
    to_move: Side,
}

impl Position {
    #[inline(always)]
    fn own_opp(&self) -> (u32, u32) {
        match self.to_move {
            Side::Red => (self.red, self.white),
            Side::White => (self.white, self.red),
        }
    }

    #[inline(always)]
    fn man_dirs(&self) -> u8 {
        match self.to_move {
            Side::Red => RED_MAN_DIRS,
            Side::White => WHITE_MAN_DIRS,
        }
    }

    /// The directions the piece on `from` (one bit) moves in, and whether it
    /// is a king.
    #[inline(always)]
    fn dirs_of(&self, from: u32) -> (bool, u8) {
        let king = self.kings & from != 0;
        (king, if king { KING_DIRS } else { self.man_dirs() })
    }

    #[inline(always)]
    fn promotion(&self) -> u32 {
        match self.to_move {
            Side::Red => RED_PROMOTION,
            Side::White => WHITE_PROMOTION,
        }
    }

    /// The pieces of the side to move that may move in direction `d`: all of
    /// them in their men's directions, only kings in the others.
    #[inline(always)]
    fn movers(&self, d: usize) -> u32 {
        let own = self.own_opp().0;
        if self.man_dirs() & 1 << d != 0 {
            own
        } else {
            own & self.kings
        }
    }

    /// The pieces of the side to move that can jump, all at once.
    #[inline(always)]
    fn jumpers(&self) -> u32 {
        let (own, opp) = self.own_opp();
        let empty = !(own | opp);
        let mut jumpers = 0;
        for d in 0..4 {
            let movers = self.movers(d);
            // Squares whose d-neighbour is an opponent with an empty square beyond.
            jumpers |= movers & shift(opp & shift(empty, 3 - d), 3 - d);
        }
        jumpers
    }

    /// Puts the result of a move on the board: the piece from `from` to `to`,
    /// the `captured` opponents removed, crowned if it ends on its promotion row.
    #[inline(always)]
    fn play(&self, from: u32, to: u32, captured: u32) -> Position {
        let was_king = self.kings & from != 0;
        let crowned = was_king || to & self.promotion() != 0;
        let kings = (self.kings & !from & !captured) | if crowned { to } else { 0 };
        let (red, white) = match self.to_move {
            Side::Red => ((self.red & !from) | to, self.white & !captured),
            Side::White => (self.red & !captured, (self.white & !from) | to),
        };
        Position {
            red,
            white,
            kings,
            to_move: self.to_move.opponent(),
        }
    }

    fn board(&self) -> Board {
        Board {
            red: self.red,
            white: self.white,
            kings: self.kings,
        }
    }

    /// Checks one written move against the rules and, when it is legal, returns
    /// the position after it. Inlined into the validation loop: returned through
    /// memory, the position was stored in pieces and reloaded whole, a
    /// store-forwarding stall that cost a quarter of the validation time.
    #[inline(always)]
    fn apply(&self, squares: &[u32]) -> Option<Position> {
        if squares.len() < 2 {
            return None;
        }
        for &s in squares {
            if !(1..=32).contains(&s) {
                return None;
            }
        }
        let (own, opp) = self.own_opp();
        let start = (squares[0] - 1) as usize;
        let from = 1u32 << start;
        if own & from == 0 {
            return None;
        }
        let (king, dirs) = self.dirs_of(from);
        let occupied = own | opp;

        if self.jumpers() == 0 {
            // No jump anywhere: only a single simple step can be legal.
            let to = (squares[1] - 1) as u8;
            let mut is_step = false;
            for (d, step) in STEP.iter().enumerate() {
                is_step |= dirs & 1 << d != 0 && step[start] == to;
            }
            return (squares.len() == 2 && is_step && occupied & 1 << to == 0)
                .then(|| self.play(from, 1 << to, 0));
        }

        // A jump is mandatory: every step must be a jump, and the sequence must go
        // on until the piece has none left (or has just been crowned). Captured
        // pieces stay on the board until the move ends, so they cannot be jumped
        // again; the start square counts as empty.
        let occupied = occupied & !from;
        let mut captured = 0u32;
        let mut at = start;
        let mut crowned = false;
        for &next in &squares[1..] {
            if crowned {
                return None;
            }
            let to = (next - 1) as u8;
            let mut direction = None;
            for (d, jump) in JUMP.iter().enumerate() {
                if dirs & 1 << d != 0 && jump[at] == to {
                    direction = Some(d);
                }
            }
            let d = direction?;
            let over = 1u32 << STEP[d][at];
            if opp & !captured & over == 0 || occupied & 1 << to != 0 {
                return None;
            }
            captured |= over;
            at = usize::from(to);
            crowned = !king && self.promotion() & 1 << at != 0;
        }
        if !crowned && can_jump_from(at, dirs, opp & !captured, occupied | 1 << at) {
            return None;
        }
        Some(self.play(from, 1 << at, captured))
    }
}

/// Whether a piece on bit `at` moving in `dirs` has a jump over one of `jumpable`
/// onto a square not in `occupied`.
#[inline(always)]
fn can_jump_from(at: usize, dirs: u8, jumpable: u32, occupied: u32) -> bool {
    // A plain loop over the four directions: the iterator form compiled to an
    // out-of-line `try_fold` on this hot path.
    let mut found = false;
    for d in 0..4 {
        let (over, to) = (STEP[d][at], JUMP[d][at]);
        found |= dirs & 1 << d != 0
            && to != NONE
            && jumpable & 1 << over != 0
            && occupied & 1 << to == 0;
    }
    found
}

/// Validates an instance, handing the position after each applied move to
/// `on_board`.
fn run_instance(instance: &Instance, mut on_board: impl FnMut(&Board)) -> Ruling {
    let board = Board::of(instance);
    let mut position = Position {
        red: board.red,
        white: board.white,
        kings: board.kings,
        to_move: instance.to_move,
    };
    for (index, m) in instance.moves.iter().enumerate() {
        match position.apply(&m.0) {
            Some(next) => {
                position = next;
                on_board(&position.board());
            }
            None => return Ruling::Invalid(index + 1),
        }
    }
    Ruling::AllValid
}

/// Validates every instance of a case: the verdicts and the digest of the trace
/// (per instance, [`Board::packed`] after every applied move, then
/// [`Ruling::packed`]).
pub fn solve(case: &Case) -> Run<Answer> {
    solve_seeing(case, |_, _| {})
}

/// `solve`, showing `seen` the position after every applied move, with
/// its instance's index: what `lockstep verify` counts the rule branches
/// from, in the same run that answers.
pub fn solve_seeing(case: &Case, mut seen: impl FnMut(usize, &Board)) -> Run<Answer> {
    let mut digest = Digest::new();
    let mut answer = Vec::with_capacity(case.instances.len());
    for (i, instance) in case.instances.iter().enumerate() {
        let verdict = run_instance(instance, |board| {
            seen(i, board);
            for word in board.packed() {
                digest.push(word);
            }
        });
        digest.push(verdict.packed());
        answer.push(verdict);
    }
    Run {
        answer,
        digest: digest.value(),
    }
}

/// Validates one instance, keeping the position after every applied move.
pub fn trace_instance(instance: &Instance) -> InstanceTrace {
    let mut boards = Vec::new();
    let verdict = run_instance(instance, |board| boards.push(*board));
    InstanceTrace { boards, verdict }
}

// ---------------------------------------------------------------------------------
// Perft

mod perft;

pub use perft::{
    children, legal_moves, perft, perft_instance, perft_parallel, start_board, Captures, Divided,
    Perft, PerftOptions, Progress, TableStats,
};

#[cfg(test)]
mod tests;
