//! Robots' levels: one game an input, its robots within two cells of your
//! start (15, 15), in shapes that reach every kind of move the rules tell
//! apart:
//!
//! | size | robots | teleport destinations |
//! |---:|---|---|
//! | 1 to 3 | `R` | `T`, any cell of the window, with `R + T` = the size |
//! | 4 | 5 | none |
//! | 5 | 6 | none |
//! | 6 | 3 | one, any cell of your column (rows 1 to 31); or 3 next to you, two on your column |
//! | 7 | `R` | `T`, any cell of the window, with `R + T = 4` |
//! | 8 | 3 | one, any cell of the board |
//!
//! The window is the 5 x 5 square around you. Robots stand on different
//! cells of it (not yours), listed in ascending order, since a game is its
//! set of robots; a destination in the window may be yours, and repeats
//! are allowed (they are tried in order). Five robots are the fewest that
//! can wreck into two debris cells and still chase you, which a push into
//! debris needs (size 4); six, two pairs wrecked into a line of debris with
//! a robot behind it and one behind you, are the fewest where a push would
//! shove a second piece of debris (size 5); a teleport far up or down your
//! column lands you near a border with three robots to follow, where a push
//! against the border happens (size 6). Three robots next to you often
//! force a teleport at once, and with two destinations on your column the first
//! is often refused there (too near a robot, or taken) and taken at a
//! later teleport: a destination tried and refused is not used up, which
//! one destination cannot show (size 6 also holds those 53,816 games).
//! Levels past 8 are empty.
//!
//! No symmetry is used: whether the robots' chase and the teleports'
//! tie-breaks are the same under the board's reflections is what the
//! differential should check, not assume.

use crate::enumerate::{choose, only_itself, subset, Digits, Levels};
use lockstep_core::robots::{Case, Cell, Game, SIZE, START};

pub const LEVELS: Levels<Case> = Levels {
    size: "robots within two cells of your start: 1 to 3 robots + teleports in that window; 4 five robots; 5 six robots; 6 three robots, a teleport on your column, or three next to you and two on your column; 7 robots + teleports = 4; 8 three robots, a teleport anywhere",
    ci: 6,
    night: 8,
    last: 8,
    span,
    case,
    count,
    images: only_itself,
    least: crate::enumerate::alone,
    may_pick: crate::enumerate::any_index,
    next: crate::enumerate::every_index,
};

/// The window's cells, row by row, your own included.
const WINDOW: u64 = 25;

/// The board's cells.
const BOARD: u64 = (SIZE as u64) * (SIZE as u64);

fn cell(i: u64) -> Cell {
    (START.0 - 2 + (i / 5) as u8, START.1 - 2 + (i % 5) as u8)
}

/// The window without your cell, for the robots.
fn robot_cell(i: u64) -> Cell {
    cell(if i >= 12 { i + 1 } else { i })
}

/// Where a level's teleport destinations may be.
#[derive(Clone, Copy)]
enum Destinations {
    /// `R + T = s` in the window, every split with a robot.
    Window(u64),
    /// `robots` robots, no teleport.
    None(u64),
    /// `robots` robots, one destination on your column.
    Column(u64),
    /// `robots` robots, one destination anywhere on the board.
    Board(u64),
}

fn shape(size: u32) -> Option<Destinations> {
    Some(match size {
        1..=3 => Destinations::Window(u64::from(size)),
        4 => Destinations::None(5),
        5 => Destinations::None(6),
        6 => Destinations::Column(3),
        7 => Destinations::Window(4),
        8 => Destinations::Board(3),
        _ => return None,
    })
}

/// Each robot count `r` of a window level of `s`: its indices.
fn part(s: u64, r: u64) -> u64 {
    choose(WINDOW - 1, r) * WINDOW.pow((s - r) as u32)
}

fn span(size: u32) -> u64 {
    match shape(size) {
        Some(Destinations::Window(s)) => (1..=s).map(|r| part(s, r)).sum(),
        Some(Destinations::None(r)) => choose(WINDOW - 1, r),
        Some(Destinations::Column(r)) => choose(WINDOW - 1, r) * u64::from(SIZE) + RING_SPAN,
        Some(Destinations::Board(r)) => choose(WINDOW - 1, r) * BOARD,
        None => 0,
    }
}

/// The cells next to yours, row by row.
const RING: [Cell; 8] = [
    (START.0 - 1, START.1 - 1),
    (START.0 - 1, START.1),
    (START.0 - 1, START.1 + 1),
    (START.0, START.1 - 1),
    (START.0, START.1 + 1),
    (START.0 + 1, START.1 - 1),
    (START.0 + 1, START.1),
    (START.0 + 1, START.1 + 1),
];

/// Size 6's second part: three robots of the ring, two destinations on
/// your column.
const RING_SPAN: u64 = 56 * 31 * 31;

/// Game `index` of size 6's second part.
fn ring_game(index: u64) -> Case {
    let mut d = Digits(index);
    let robots = subset(8, 3, d.take(choose(8, 3)));
    let mut column = || (d.take(u64::from(SIZE)) as u8 + 1, START.1);
    let teleports = vec![column(), column()];
    Case {
        games: vec![Game {
            robots: robots.iter().map(|&i| RING[i as usize]).collect(),
            teleports,
        }],
    }
}

/// The game of `r` robots (the subset at `digits`) and these destinations.
fn game(r: u64, digits: &mut Digits, teleports: impl FnOnce(&mut Digits) -> Vec<Cell>) -> Case {
    let robots = subset(WINDOW - 1, r, digits.take(choose(WINDOW - 1, r)));
    Case {
        games: vec![Game {
            robots: robots.iter().copied().map(robot_cell).collect(),
            teleports: teleports(digits),
        }],
    }
}

fn case(size: u32, mut index: u64) -> Option<Case> {
    let on_board = |i: u64| {
        (
            (i / u64::from(SIZE)) as u8 + 1,
            (i % u64::from(SIZE)) as u8 + 1,
        )
    };
    match shape(size)? {
        Destinations::Window(s) => {
            for r in 1..=s {
                if index >= part(s, r) {
                    index -= part(s, r);
                    continue;
                }
                return Some(game(r, &mut Digits(index), |d| {
                    (r..s).map(|_| cell(d.take(WINDOW))).collect()
                }));
            }
            None
        }
        Destinations::None(r) => Some(game(r, &mut Digits(index), |_| Vec::new())),
        Destinations::Column(r) => {
            let first = choose(WINDOW - 1, r) * u64::from(SIZE);
            if index >= first {
                return (index - first < RING_SPAN).then(|| ring_game(index - first));
            }
            Some(game(r, &mut Digits(index), |d| {
                vec![(d.take(u64::from(SIZE)) as u8 + 1, START.1)]
            }))
        }
        Destinations::Board(r) => Some(game(r, &mut Digits(index), |d| {
            vec![on_board(d.take(BOARD))]
        })),
    }
}

/// Every coordinate is a game: for a window level, the sum over the robot
/// counts of the robot sets times the teleport sequences, as a closed form
/// in the sizes; for the others, the robot sets times the destinations.
fn count(size: u32) -> u64 {
    match shape(size) {
        Some(Destinations::Window(s)) => (1..=s)
            .map(|r| choose(24, r) * 25u64.pow((s - r) as u32))
            .sum(),
        Some(Destinations::None(r)) => choose(24, r),
        // And three of the eight cells next to you, two destinations.
        Some(Destinations::Column(r)) => choose(24, r) * 31 + choose(8, 3) * 31 * 31,
        Some(Destinations::Board(r)) => choose(24, r) * 31 * 31,
        None => 0,
    }
}

#[cfg(test)]
mod tests;
