//! Perft: children generated onto one shared stack (no allocation per node),
//! the last ply counted in bulk (see the parent module).

use super::{can_jump_from, shift, Board, Instance, Position, Side, JUMP, KING_DIRS, NONE, STEP};

/// Pushes every jump sequence of the piece on `at` that continues the move so far.
#[allow(clippy::too_many_arguments)]
fn push_jumps(
    position: &Position,
    from: u32,
    at: usize,
    dirs: u8,
    opp: u32,
    occupied: u32,
    captured: u32,
    out: &mut Vec<Position>,
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
        if crowned || !can_jump_from(to, dirs, opp & !captured, occupied | landing) {
            out.push(position.play(from, landing, captured));
        } else {
            push_jumps(position, from, to, dirs, opp, occupied, captured, out);
        }
    }
}

/// Pushes the resulting position of every jump sequence of the pieces in
/// `jumpers` (the side's [`Position::jumpers`]) onto `out`.
fn push_all_jumps(position: &Position, jumpers: u32, out: &mut Vec<Position>) {
    let (own, opp) = position.own_opp();
    let mut rest = jumpers;
    while rest != 0 {
        let at = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let from = 1u32 << at;
        let dirs = if position.kings & from != 0 {
            KING_DIRS
        } else {
            position.man_dirs()
        };
        push_jumps(position, from, at, dirs, opp, (own | opp) & !from, 0, out);
    }
}

/// Pushes every legal move's resulting position onto `out`.
fn push_children(position: &Position, out: &mut Vec<Position>) {
    let jumpers = position.jumpers();
    if jumpers != 0 {
        push_all_jumps(position, jumpers, out);
        return;
    }
    let (own, opp) = position.own_opp();
    let empty = !(own | opp);
    for d in 0..4 {
        let mut targets = shift(position.movers(d), d) & empty;
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let from = 1u32 << STEP[3 - d][to];
            out.push(position.play(from, 1 << to, 0));
        }
    }
}

/// The number of legal moves, without building the positions when there is no
/// jump (the usual case).
fn count_moves(position: &Position, scratch: &mut Vec<Position>) -> u64 {
    let jumpers = position.jumpers();
    if jumpers != 0 {
        let base = scratch.len();
        push_all_jumps(position, jumpers, scratch);
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

fn perft_from(position: &Position, depth: u32, stack: &mut Vec<Position>) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(position, stack),
        _ => {
            let base = stack.len();
            push_children(position, stack);
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

/// Leaf nodes `depth` plies from an instance's position (its pieces, its side
/// to move; the moves are ignored): perft where the start does not go in a few
/// plies (kings, a crowning mid-jump), for the differential test of the move
/// generator against the reference's.
pub fn perft_instance(instance: &Instance, depth: u32) -> u64 {
    let board = Board::of(instance);
    let position = Position {
        red: board.red,
        white: board.white,
        kings: board.kings,
        to_move: instance.to_move,
    };
    perft_from(&position, depth, &mut Vec::with_capacity(1024))
}

/// Leaf nodes `depth` plies from the standard start (every jump path its own
/// move; the last ply counted in bulk), on one thread.
pub fn perft(depth: u32) -> u64 {
    perft_from(&start_position(), depth, &mut Vec::with_capacity(1024))
}

/// [`perft`] on `threads` threads: the positions two plies from the start are
/// shared out through an atomic counter.
pub fn perft_parallel(depth: u32, threads: usize) -> u64 {
    use std::sync::atomic::{AtomicUsize, Ordering};
    if depth <= 3 || threads <= 1 {
        return perft(depth);
    }
    let mut first = Vec::new();
    push_children(&start_position(), &mut first);
    let mut second = Vec::new();
    for child in &first {
        push_children(child, &mut second);
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
