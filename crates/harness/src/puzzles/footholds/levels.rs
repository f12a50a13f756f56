//! Footholds' levels: size `k` is every board of `k` cells (each `H x W`
//! with `H * W = k` and both sides within the statement's 1..=5), every set
//! of footholds on it, and both players on footholds (possibly the same
//! one): one game per input.
//!
//! Size 7, where no board within the statement's sides has that many cells
//! (7 is a prime over 5), holds inputs of two games instead: every ordered
//! pair of the 61 games of sizes 1 to 3. So the CI scope also reads,
//! solves and writes an input of several games, and the answers' order.
//! Such a pair is a class of its own (no symmetry is used for it).

use crate::enumerate::{shapes, Digits, Levels};
use lockstep_core::footholds::{Case, Game, ORIGINAL_MAX_SIDE};

pub const LEVELS: Levels<Case> = Levels {
    size: "board cells (H x W with H * W = size), every foothold set, both players on footholds; size 7 two games of sizes 1 to 3",
    ci: 12,
    night: 16,
    last: 25,
    span,
    case,
    count,
    images,
    least,
    may_pick: crate::enumerate::any_index,
    next: crate::enumerate::every_index,
};

/// The size that holds two games, and the largest size of each of them.
const PAIRS: u32 = 7;
const PAIRED_UP_TO: u32 = 3;

fn span(k: u32) -> u64 {
    if k == PAIRS {
        let one: u64 = (1..=PAIRED_UP_TO).map(span).sum();
        return one * one;
    }
    let cells = u64::from(k);
    shapes(k, ORIGINAL_MAX_SIDE).count() as u64 * (1 << cells) * cells * cells
}

fn case(k: u32, index: u64) -> Option<Case> {
    if k == PAIRS {
        let one: u64 = (1..=PAIRED_UP_TO).map(span).sum();
        let (first, second) = (small_game(index % one)?, small_game(index / one)?);
        return Some(Case {
            games: vec![first, second],
        });
    }
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

/// The game at `index` of sizes 1 to [`PAIRED_UP_TO`] laid end to end.
fn small_game(mut index: u64) -> Option<Game> {
    for k in 1..=PAIRED_UP_TO {
        if index < span(k) {
            return case(k, index).map(|c| c.games.into_iter().next().expect("one game"));
        }
        index -= span(k);
    }
    None
}

/// Per shape, sum over m footholds of C(k, m) m^2 = k (k + 1) 2^(k - 2);
/// at [`PAIRS`], the square of the games of sizes 1 to 3.
fn count(k: u32) -> u64 {
    if k == PAIRS {
        let one: u64 = (1..=PAIRED_UP_TO).map(count).sum();
        return one * one;
    }
    let cells = u64::from(k);
    shapes(k, ORIGINAL_MAX_SIDE).count() as u64 * cells * (cells + 1) * (1 << cells) / 4
}

/// One case of each class: the board whose image under the eight
/// symmetries, read as numbers (height, width, footholds row by row as
/// bits, then both players' cells), is the least, counted with the images
/// that differ. Worked on those numbers, not on new boards: building the
/// eight images was most of a run's time.
fn least(case: &Case) -> Option<u64> {
    if case.games.len() > 1 {
        return Some(1);
    }
    let game = &case.games[0];
    let (h, w) = (game.height, game.width);
    let own = image_key(game, |r, c| (r, c), h, w);
    let mut keys = [own; 8];
    for (t, key) in keys.iter_mut().enumerate().skip(1) {
        // The eight maps of the square's group: four turns, each mirrored.
        let map = move |r: usize, c: usize| -> (usize, usize) {
            let (r, c) = if t & 4 != 0 { (r, w - 1 - c) } else { (r, c) };
            match t & 3 {
                0 => (r, c),
                1 => (c, h - 1 - r),
                2 => (h - 1 - r, w - 1 - c),
                _ => (w - 1 - c, r),
            }
        };
        let (h2, w2) = if t & 1 == 1 { (w, h) } else { (h, w) };
        *key = image_key(game, map, h2, w2);
        if *key < own {
            return None;
        }
    }
    keys.sort_unstable();
    Some(1 + keys.windows(2).filter(|p| p[0] != p[1]).count() as u64)
}

/// The image of `game` under `map` (old cell to new, on an `h x w` board)
/// as numbers: the order [`least`] picks by.
fn image_key(
    game: &Game,
    map: impl Fn(usize, usize) -> (usize, usize),
    h: usize,
    w: usize,
) -> (usize, usize, u64, usize, usize) {
    let at = |r: usize, c: usize| {
        let (r, c) = map(r, c);
        r * w + c
    };
    let mut mask = 0u64;
    for r in 0..game.height {
        for c in 0..game.width {
            if game.cells[r * game.width + c] {
                mask |= 1 << at(r, c);
            }
        }
    }
    let cell = |(r, c): (u8, u8)| at(usize::from(r), usize::from(c));
    (h, w, mask, cell(game.a), cell(game.b))
}

/// The board's four rotations, each also mirrored: the answer depends on
/// neither (moves are the four neighbours either way).
fn images(case: &Case) -> Vec<Case> {
    if case.games.len() > 1 {
        return vec![case.clone()];
    }
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
