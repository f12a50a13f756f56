//! New Game 2's levels, on the statement's smallest game (N = 4, K = 4),
//! grown by two measures at once: the pieces' spread (the side of the
//! smallest square holding all four, 2 to 4) and the non-white cells.
//! Size `s` holds every game with `2 (spread - 2) + non-white cells + 1 =
//! s`: every placement of pieces 1 to 4 with that spread, every direction
//! of each, every set of that many non-white cells, each red or blue. A
//! coloured cell weighs half a step of spread, so that colours come early:
//! size 1 is spread 2 on a white board (55,296 games, and the 48 below); size 2 is spread 2
//! with one red or blue cell, where every colour's rule already applies
//! (1,769,472 games, and the blocked games below); size 3 adds spread 3 on a white board and spread 2
//! with two coloured cells.
//!
//! Size 2 also holds, of the games of spread 2 with two coloured cells
//! (size 3's), those where a piece can be blocked both ways on red: a red
//! cell on the board's edge under one of the pieces, and a blue cell next
//! to it on the inward side (147,456 games, `blocked_case`). A piece
//! there facing the edge turns round, meets the blue and stays, with the
//! group on it; that takes two coloured cells, which size 2 otherwise
//! lacks.
//!
//! Size 1 also holds the six late games of `late.rs` ([`super::LATE_GAMES`]), found by search
//! and ending on turns 999, 1000 and 1001 (the last answered -1), each under
//! the square's eight symmetries on its own board of 6: the turn limit is a
//! rule of the statement, and no game of N = 4 comes near it.
//!
//! Symmetry: the board's rotations and reflections, with the directions
//! turned with it (the turn order, piece 1 first, is kept).

use super::late::{colour_of, dir_of, LATE_GAMES};
use crate::enumerate::{choose, subset, Digits, Levels};
use lockstep_core::new_game2::{Case, Colour, Dir, Piece};
use std::sync::OnceLock;

pub const LEVELS: Levels<Case> = Levels {
    size: "N = 4, K = 4: 2 (the pieces' spread - 2) + the red or blue cells + 1; size 1 also the six games found to end on turns 999 to 1001, under the square's symmetries; size 2 also a red edge cell under a piece with a blue cell inward of it",
    ci: 2,
    night: 3,
    last: 21,
    span,
    case,
    count,
    images,
    least,
    may_pick: crate::enumerate::any_index,
    next: crate::enumerate::every_index,
};

const N: usize = 4;
const CELLS: u64 = (N * N) as u64;
const DIRECTIONS: u64 = 4 * 4 * 4 * 4;

/// The ordered placements of the four pieces (cell indices, row-major) by
/// spread: `placements()[t]` those whose smallest holding square has side t.
fn placements() -> &'static [Vec<[u8; 4]>; N + 1] {
    static ALL: OnceLock<[Vec<[u8; 4]>; N + 1]> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut by: [Vec<[u8; 4]>; N + 1] = Default::default();
        for i in 0..CELLS.pow(4) {
            let mut d = Digits(i);
            let cells = [0; 4].map(|_| d.take(CELLS) as u8);
            let distinct = (0..4).all(|a| (0..a).all(|b| cells[a] != cells[b]));
            if distinct {
                let side = |f: fn(u8) -> u8| {
                    let (lo, hi) = (
                        cells.map(f).into_iter().min(),
                        cells.map(f).into_iter().max(),
                    );
                    hi.zip(lo).map_or(0, |(h, l)| h - l + 1)
                };
                let spread = side(|c| c / N as u8).max(side(|c| c % N as u8));
                by[usize::from(spread)].push(cells);
            }
        }
        by
    })
}

/// The (spread, non-white cells) pairs of size `s`.
fn parts(s: u32) -> Vec<(usize, u64)> {
    (2..=N)
        .filter_map(|spread| {
            let colours = i64::from(s) - 1 - 2 * (spread as i64 - 2);
            (0..=CELLS as i64)
                .contains(&colours)
                .then_some((spread, colours as u64))
        })
        .collect()
}

/// The indices of one (spread, colours) part with `ordered` placements.
fn part_span(colours: u64, ordered: u64) -> u64 {
    choose(CELLS, colours) * (1 << colours) * ordered * DIRECTIONS
}

fn span(s: u32) -> u64 {
    let all = placements();
    let late = match s {
        1 => LATE,
        2 => BLOCKED_SPAN,
        _ => 0,
    };
    parts(s)
        .into_iter()
        .map(|(spread, colours)| part_span(colours, all[spread].len() as u64))
        .sum::<u64>()
        + late
}

fn case(s: u32, mut index: u64) -> Option<Case> {
    let all = placements();
    for (spread, colours) in parts(s) {
        let here = part_span(colours, all[spread].len() as u64);
        if index >= here {
            index -= here;
            continue;
        }
        let mut d = Digits(index);
        let mut board = vec![Colour::White; N * N];
        let painted = subset(CELLS, colours, d.take(choose(CELLS, colours)));
        for &cell in painted.iter() {
            board[cell as usize] = d.pick(&[Colour::Red, Colour::Blue]);
        }
        let cells = all[spread][d.take(all[spread].len() as u64) as usize];
        return Some(game(board, cells, &mut d));
    }
    match s {
        1 => late_case(index),
        2 => blocked_case(index),
        _ => None,
    }
}

/// The red edge cells, each with the blue cell inward of it: a pair for
/// each side of the board a cell lies on (two for a corner), 16 in all.
fn blocked_pairs() -> Vec<(u8, u8)> {
    let mut pairs = Vec::new();
    let (n, last) = (N as i8, N as i8 - 1);
    for cell in 0..CELLS as i8 {
        let (r, c) = (cell / n, cell % n);
        let sides = [(r == 0, n), (r == last, -n), (c == 0, 1), (c == last, -1)];
        for (on, inward) in sides {
            if on {
                pairs.push((cell as u8, (cell + inward) as u8));
            }
        }
    }
    pairs
}

/// The indexes of size 2's blocked games: a pair, a placement of spread 2
/// (a 2x2 square's 9 positions, the pieces' 24 orders), the directions.
const BLOCKED_SPAN: u64 = 16 * 9 * 24 * DIRECTIONS;

/// Blocked game `index`: `None` where the red cell holds no piece.
fn blocked_case(index: u64) -> Option<Case> {
    let mut d = Digits(index);
    let (red, blue) = blocked_pairs()[d.take(16) as usize];
    let square = &placements()[2];
    let cells = square[d.take(square.len() as u64) as usize];
    if !cells.contains(&red) {
        return None;
    }
    let mut board = vec![Colour::White; N * N];
    board[usize::from(red)] = Colour::Red;
    board[usize::from(blue)] = Colour::Blue;
    Some(game(board, cells, &mut d))
}

/// The game on `board` with pieces 1 to 4 on `cells` (row-major), their
/// directions the next digits of `d`.
fn game(board: Vec<Colour>, cells: [u8; 4], d: &mut Digits) -> Case {
    let pieces = cells
        .iter()
        .map(|&cell| Piece {
            row: cell / N as u8 + 1,
            col: cell % N as u8 + 1,
            dir: d.pick(&Dir::ALL),
        })
        .collect();
    Case {
        n: N,
        board,
        pieces,
    }
}

/// Size 2's blocked games counted without the lists: for each edge cell
/// and each side it lies on, the 2x2 squares holding the cell (one for a
/// corner, two along a side), each with the pieces' 24 orders and their
/// directions.
fn blocked_count() -> u64 {
    let n = N as u64;
    let squares = |x: u64| u64::from(x > 0) + u64::from(x + 1 < n);
    let edge = |x: u64| u64::from(x == 0) + u64::from(x == n - 1);
    let mut total = 0;
    for r in 0..n {
        for c in 0..n {
            total += (edge(r) + edge(c)) * squares(r) * squares(c);
        }
    }
    total * 24 * DIRECTIONS
}

/// Counted without the placements' list: the 4-cell sets whose bounding
/// box is exactly `h x w` (inclusion-exclusion over the box's sides it
/// misses), in each of the box's positions, times the pieces' 24 orders;
/// then the colourings and the directions.
fn count(s: u32) -> u64 {
    // (sign, lines left) for a box side of `h` lines that must be touched
    // at both ends: all, less each end missed, plus both missed.
    let ends = |h: i64| -> Vec<(i64, i64)> {
        match h {
            1 => vec![(1, 1)],
            _ => vec![(1, h), (-2, h - 1), (1, h - 2)],
        }
    };
    let exact_box = |h: i64, w: i64| -> i64 {
        let mut total = 0;
        for (a, rows) in ends(h) {
            for (b, columns) in ends(w) {
                total += a * b * choose((rows * columns) as u64, 4) as i64;
            }
        }
        total
    };
    let ordered = |spread: i64| -> u64 {
        let n = N as i64;
        let mut sets = 0;
        for h in 1..=n {
            for w in 1..=n {
                if h.max(w) == spread {
                    sets += (n + 1 - h) * (n + 1 - w) * exact_box(h, w);
                }
            }
        }
        sets as u64 * 24
    };
    let late = match s {
        1 => LATE,
        2 => blocked_count(),
        _ => 0,
    };
    parts(s)
        .into_iter()
        .map(|(spread, colours)| {
            choose(CELLS, colours) * (1 << colours) * ordered(spread as i64) * DIRECTIONS
        })
        .sum::<u64>()
        + late
}

/// One case of each class: the least of its images by hash.
fn least(case: &Case) -> Option<u64> {
    crate::enumerate::class_of(case, images)
}

/// The eight rotations and reflections: transpose or not, then flip the
/// rows or not, then the columns or not; each direction turned the same way.
fn images(case: &Case) -> Vec<Case> {
    let n = case.n;
    let last = n as u8; // rows and columns are 1-based
    (0..8)
        .map(|t: u8| {
            let place = |(mut r, mut c): (u8, u8)| {
                if t & 4 != 0 {
                    (r, c) = (c, r);
                }
                if t & 1 != 0 {
                    r = last + 1 - r;
                }
                if t & 2 != 0 {
                    c = last + 1 - c;
                }
                (r, c)
            };
            let turn = |mut dir: Dir| {
                if t & 4 != 0 {
                    dir = match dir {
                        Dir::Right => Dir::Down,
                        Dir::Down => Dir::Right,
                        Dir::Left => Dir::Up,
                        Dir::Up => Dir::Left,
                    };
                }
                if t & 1 != 0 {
                    dir = match dir {
                        Dir::Up => Dir::Down,
                        Dir::Down => Dir::Up,
                        other => other,
                    };
                }
                if t & 2 != 0 {
                    dir = match dir {
                        Dir::Left => Dir::Right,
                        Dir::Right => Dir::Left,
                        other => other,
                    };
                }
                dir
            };
            let mut board = vec![Colour::White; n * n];
            for r in 1..=last {
                for c in 1..=last {
                    let (r2, c2) = place((r, c));
                    // The board read directly, not through the model's
                    // colour(): the enumeration must not run core code,
                    // which a mutant of the core may make panic.
                    board[usize::from(r2 - 1) * n + usize::from(c2 - 1)] =
                        case.board[usize::from(r - 1) * n + usize::from(c - 1)];
                }
            }
            let pieces = case
                .pieces
                .iter()
                .map(|p| {
                    let (row, col) = place((p.row, p.col));
                    Piece {
                        row,
                        col,
                        dir: turn(p.dir),
                    }
                })
                .collect();
            Case { n, board, pieces }
        })
        .collect()
}

/// Size 1's last cases: the late games, each under the square's eight
/// symmetries, alone on their own board.
const LATE: u64 = 8 * LATE_GAMES.len() as u64;

/// Late game `index / 8` under symmetry `index % 8` ([`images`]' order).
fn late_case(index: u64) -> Option<Case> {
    let game = LATE_GAMES.get(usize::try_from(index / 8).ok()?)?;
    let m = game.n;
    let found = Case {
        n: m,
        board: game.colours.bytes().map(colour_of).collect(),
        pieces: game
            .pieces
            .iter()
            .map(|&(row, col, dir)| Piece {
                row,
                col,
                dir: dir_of(dir),
            })
            .collect(),
    };
    images(&found).into_iter().nth((index % 8) as usize)
}

#[cfg(test)]
mod tests;
