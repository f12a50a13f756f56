//! Perft: children generated onto one shared stack (no allocation per node),
//! the last ply counted in bulk (see the parent module). The deep counts, with
//! the transposition table and all cores, are in `perft/deep.rs`; the table in
//! `perft/table.rs`.
//!
//! Two counting conventions ([`Captures`]): every jump path its own move (OEIS
//! A133046, Aart Bik's counts), or the paths of one piece that end on the same
//! square having taken the same pieces counted once (Rein Halbersma's dctl).
//! Only a king can take the same pieces along two paths (a man's jumps all go
//! forward, so its path is fixed by the pieces it takes), and two pieces never
//! end a move in the same position, so "the same resulting position, the same
//! piece moving" is that rule.

use super::{can_jump_from, shift, Board, Instance, Position, Side, JUMP, KING_DIRS, NONE, STEP};
use crate::checkers::Move;

mod deep;
mod table;

pub use deep::{Divided, Perft, PerftOptions, Progress};
pub use table::TableStats;

/// Which jump sequences count as different moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Captures {
    /// Every path its own move (OEIS A133046; what Checker's Check's written
    /// moves are).
    #[default]
    Paths,
    /// One piece's paths that end on the same square having taken the same
    /// pieces are one move (dctl's counts).
    Sets,
}

/// Where [`push_jumps`] puts what it finds: the counting keeps only the
/// positions after each sequence (a `Vec<Position>`, whose `enter` and
/// `leave` are nothing), `legal_moves` the squares visited too
/// ([`Written`]). One recursion for both, so the divide names exactly the
/// moves the count counts.
trait JumpSink {
    /// The piece lands on `to` (0-based), with more of the sequence to come
    /// or not.
    fn enter(&mut self, _to: usize) {}
    /// Undoes the last `enter`.
    fn leave(&mut self) {}
    /// A sequence ends, in `after`.
    fn end(&mut self, after: Position);
}

impl JumpSink for Vec<Position> {
    #[inline(always)]
    fn end(&mut self, after: Position) {
        self.push(after);
    }
}

/// The jump sequences of one piece as written: the squares visited (1..=32,
/// the start first) and the position after.
struct Written<'a> {
    path: Vec<u32>,
    out: &'a mut Vec<(Vec<u32>, Position)>,
}

impl JumpSink for Written<'_> {
    fn enter(&mut self, to: usize) {
        self.path.push(to as u32 + 1);
    }
    fn leave(&mut self) {
        self.path.pop();
    }
    fn end(&mut self, after: Position) {
        self.out.push((self.path.clone(), after));
    }
}

/// Every jump sequence of the piece on `at` that continues the move so far,
/// into `out`.
#[allow(clippy::too_many_arguments)]
fn push_jumps(
    position: &Position,
    from: u32,
    at: usize,
    dirs: u8,
    opp: u32,
    occupied: u32,
    captured: u32,
    out: &mut impl JumpSink,
) {
    let promotion = position.promotion();
    let king = dirs == KING_DIRS;
    for d in 0..4 {
        if dirs & 1 << d == 0 || JUMP[d][at] == NONE {
            continue;
        }
        let over = 1u32 << STEP[d][at];
        let to = JUMP[d][at] as usize;
        if opp & !captured & over == 0 || occupied & 1 << to != 0 {
            continue;
        }
        let captured = captured | over;
        let landing = 1u32 << to;
        let crowned = !king && promotion & landing != 0;
        out.enter(to);
        if crowned || !can_jump_from(to, dirs, opp & !captured, occupied | landing) {
            out.end(position.play(from, landing, captured));
        } else {
            push_jumps(position, from, to, dirs, opp, occupied, captured, out);
        }
        out.leave();
    }
}

/// Drops from `moves[base..]` every position that an earlier one of them
/// equals (one piece's sequences: the same landing square, the same pieces
/// taken).
fn drop_repeats(moves: &mut Vec<Position>, base: usize) {
    let mut kept = base;
    for index in base..moves.len() {
        let candidate = moves[index];
        if !moves[base..kept].contains(&candidate) {
            moves[kept] = candidate;
            kept += 1;
        }
    }
    moves.truncate(kept);
}

/// The squares of `bits`, lowest first: each as its index and its bit.
#[inline(always)]
fn squares(mut bits: u32) -> impl Iterator<Item = (usize, u32)> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let at = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            (at, 1u32 << at)
        })
    })
}

/// Pushes the resulting position of every jump sequence of the pieces in
/// `jumpers` (the side's [`Position::jumpers`]) onto `out`.
fn push_all_jumps(position: &Position, jumpers: u32, captures: Captures, out: &mut Vec<Position>) {
    let (own, opp) = position.own_opp();
    for (at, from) in squares(jumpers) {
        let (king, dirs) = position.dirs_of(from);
        let base = out.len();
        push_jumps(position, from, at, dirs, opp, (own | opp) & !from, 0, out);
        if king && captures == Captures::Sets && out.len() - base > 1 {
            drop_repeats(out, base);
        }
    }
}

/// Pushes every legal move's resulting position onto `out`.
fn push_children(position: &Position, captures: Captures, out: &mut Vec<Position>) {
    let jumpers = position.jumpers();
    if jumpers != 0 {
        push_all_jumps(position, jumpers, captures, out);
        return;
    }
    let (own, opp) = position.own_opp();
    let empty = !(own | opp);
    for d in 0..4 {
        for (to, bit) in squares(shift(position.movers(d), d) & empty) {
            let from = 1u32 << STEP[3 - d][to];
            out.push(position.play(from, bit, 0));
        }
    }
}

/// The number of legal moves, without building the positions when there is no
/// jump (the usual case): bulk counting.
fn count_moves(position: &Position, captures: Captures, scratch: &mut Vec<Position>) -> u64 {
    let jumpers = position.jumpers();
    if jumpers != 0 {
        let base = scratch.len();
        push_all_jumps(position, jumpers, captures, scratch);
        let count = (scratch.len() - base) as u64;
        scratch.truncate(base);
        return count;
    }
    let (own, opp) = position.own_opp();
    let empty = !(own | opp);
    (0..4)
        .map(|d| u64::from((shift(position.movers(d), d) & empty).count_ones()))
        .sum()
}

/// Perft without a table, every path its own move.
fn perft_from(position: &Position, depth: u32, stack: &mut Vec<Position>) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(position, Captures::Paths, stack),
        _ => {
            let base = stack.len();
            push_children(position, Captures::Paths, stack);
            let mut nodes = 0;
            for index in base..stack.len() {
                let child = stack[index];
                nodes += perft_from(&child, depth - 1, stack);
            }
            stack.truncate(base);
            nodes
        }
    }
}

/// The standard start: Red on 1-12, White on 21-32, Red to move (the position is
/// symmetric, so the counts do not depend on who starts).
fn start_position() -> Position {
    Position {
        red: 0x0000_0FFF,
        white: 0xFFF0_0000,
        kings: 0,
        to_move: Side::Red,
    }
}

/// The standard start as a board (Red to move).
pub fn start_board() -> Board {
    start_position().board()
}

fn position_of(board: &Board, to_move: Side) -> Position {
    Position {
        red: board.red,
        white: board.white,
        kings: board.kings,
        to_move,
    }
}

/// Leaf nodes `depth` plies from an instance's position (its pieces, its side
/// to move; the moves are ignored): perft where the start does not go in a few
/// plies (kings, a crowning mid-jump), for the differential test of the move
/// generator against the reference's.
pub fn perft_instance(instance: &Instance, depth: u32) -> u64 {
    let position = position_of(&Board::of(instance), instance.to_move);
    perft_from(&position, depth, &mut Vec::with_capacity(1024))
}

/// Leaf nodes `depth` plies from the standard start (every jump path its own
/// move; the last ply counted in bulk), on one thread, without a table.
pub fn perft(depth: u32) -> u64 {
    perft_from(&start_position(), depth, &mut Vec::with_capacity(1024))
}

/// [`perft`] on `threads` threads, without a table: the positions two plies
/// from the start are shared out through an atomic counter. (The deep counts
/// are [`Perft`]'s.)
pub fn perft_parallel(depth: u32, threads: usize) -> u64 {
    use std::sync::atomic::{AtomicUsize, Ordering};
    if depth <= 3 || threads <= 1 {
        return perft(depth);
    }
    let mut first = Vec::new();
    push_children(&start_position(), Captures::Paths, &mut first);
    let mut second = Vec::new();
    for child in &first {
        push_children(child, Captures::Paths, &mut second);
    }
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut stack = Vec::with_capacity(1024);
                    let mut nodes = 0;
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(position) = second.get(index) else {
                            return nodes;
                        };
                        nodes += perft_from(position, depth - 2, &mut stack);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("perft workers do not panic"))
            .sum()
    })
}

/// Every legal move of `to_move` on `board` as written (its squares, 1..=32),
/// with the board after it, sorted by the written squares; under
/// [`Captures::Sets`], of one piece's paths with the same landing square and
/// the same pieces taken only the first in that order is kept. For `perft
/// --divide`, which names each first move; the counting itself never builds
/// paths.
pub fn legal_moves(board: &Board, to_move: Side, captures: Captures) -> Vec<(Move, Board)> {
    let position = position_of(board, to_move);
    let (own, opp) = position.own_opp();
    let mut moves = Vec::new();
    let jumpers = position.jumpers();
    for (at, from) in squares(own) {
        let (_, dirs) = position.dirs_of(from);
        if jumpers != 0 {
            let base = moves.len();
            let occupied = (own | opp) & !from;
            let mut written = Written {
                path: vec![at as u32 + 1],
                out: &mut moves,
            };
            push_jumps(&position, from, at, dirs, opp, occupied, 0, &mut written);
            moves[base..].sort_by(|a, b| a.0.cmp(&b.0));
            if captures == Captures::Sets {
                let mut kept = base;
                for index in base..moves.len() {
                    if !moves[base..kept].iter().any(|m| m.1 == moves[index].1) {
                        moves.swap(kept, index);
                        kept += 1;
                    }
                }
                moves.truncate(kept);
            }
        } else {
            for (d, step) in STEP.iter().enumerate() {
                let to = step[at];
                if dirs & 1 << d != 0 && to != NONE && (own | opp) & 1 << to == 0 {
                    let path = vec![at as u32 + 1, u32::from(to) + 1];
                    moves.push((path, position.play(from, 1 << to, 0)));
                }
            }
        }
    }
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves
        .into_iter()
        .map(|(path, after)| (Move(path), after.board()))
        .collect()
}

/// One ply from a board: the boards after every legal move (the counting
/// generator's, for the tests that hold it to [`legal_moves`]).
pub fn children(board: &Board, to_move: Side, captures: Captures) -> Vec<Board> {
    let mut out = Vec::new();
    push_children(&position_of(board, to_move), captures, &mut out);
    out.iter().map(Position::board).collect()
}

#[cfg(test)]
mod tests;
