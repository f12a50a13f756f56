//! The matrix game's levels: size `k` is every game of `k` entries (`M x N`
//! with `M * N = k`, both sides within 1..=6), each entry in -1..=1. No
//! symmetry is used: permuting rows or columns keeps the value but may
//! change which equilibrium a solver finds, and with it the best replies
//! `L` and `U` of the answer.

use crate::enumerate::{only_itself, shapes, Digits, Levels};
use lockstep_core::matrix_game::{Game, MAX_SIDE};

pub const LEVELS: Levels<Game> = Levels {
    size: "entries (M x N with M * N = size), each in -1..=1",
    ci: 10,
    night: 12,
    last: 36,
    span: count,
    case,
    count,
    images: only_itself,
    least: crate::enumerate::alone,
    may_pick: crate::enumerate::any_index,
    next: crate::enumerate::every_index,
};

fn case(k: u32, index: u64) -> Option<Game> {
    let mut d = Digits(index);
    let shapes = shapes(k, MAX_SIDE);
    let (rows, columns) = shapes.clone().nth(d.take(shapes.count() as u64) as usize)?;
    let entries = (0..k).map(|_| d.take(3) as i32 - 1).collect();
    Some(Game {
        rows,
        columns,
        entries,
    })
}

/// Every coordinate is a valid game: shapes times 3^k.
fn count(k: u32) -> u64 {
    shapes(k, MAX_SIDE).count() as u64 * 3u64.pow(k)
}
