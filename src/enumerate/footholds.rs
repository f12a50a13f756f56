//! Footholds' levels: size `k` is every board of `k` cells (each `H x W`
//! with `H * W = k` and both sides within the statement's 1..=5), every set
//! of footholds on it, and both players on footholds (possibly the same
//! one): one game per input.

use super::{shapes, Digits, Levels};
use lockstep_core::footholds::{Case, Game, ORIGINAL_MAX_SIDE};

pub const LEVELS: Levels<Case> = Levels {
    size: "board cells (H x W with H * W = size), every foothold set, both players on footholds",
    ci: 12,
    night: 16,
    span,
    case,
    count,
    images,
};

fn span(k: u32) -> u64 {
    let cells = u64::from(k);
    shapes(k, ORIGINAL_MAX_SIDE).count() as u64 * (1 << cells) * cells * cells
}

fn case(k: u32, index: u64) -> Option<Case> {
    let cells = u64::from(k);
    let mut d = Digits(index);
    let shapes = shapes(k, ORIGINAL_MAX_SIDE);
    let shape = d.take(shapes.clone().count() as u64) as usize;
    let mask = d.take(1 << cells);
    let (a, b) = (d.take(cells) as usize, d.take(cells) as usize);
    // Three coordinates in four put a player off the footholds: refused
    // before anything is built.
    if mask >> a & 1 == 0 || mask >> b & 1 == 0 {
        return None;
    }
    let (height, width) = shapes.clone().nth(shape)?;
    let at = |i: usize| ((i / width) as u8, (i % width) as u8);
    Some(Case {
        games: vec![Game {
            height,
            width,
            cells: (0..k).map(|i| mask >> i & 1 == 1).collect(),
            a: at(a),
            b: at(b),
        }],
    })
}

/// Per shape, sum over m footholds of C(k, m) m^2 = k (k + 1) 2^(k - 2).
fn count(k: u32) -> u64 {
    let cells = u64::from(k);
    shapes(k, ORIGINAL_MAX_SIDE).count() as u64 * cells * (cells + 1) * (1 << cells) / 4
}

/// The board's four rotations, each also mirrored: the answer depends on
/// neither (moves are the four neighbours either way).
fn images(case: &Case) -> Vec<Case> {
    let mut out = Vec::with_capacity(8);
    let mut game = case.games[0].clone();
    for _ in 0..4 {
        out.push(Case {
            games: vec![game.mirrored()],
        });
        out.push(Case {
            games: vec![game.clone()],
        });
        game = game.rotated();
    }
    out
}
