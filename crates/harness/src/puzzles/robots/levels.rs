//! Robots' levels: everything within two cells of your start (15, 15).
//! Size `s` is every game of `R` robots and `T` teleports with `R + T =
//! s`, `R` at least one: the robots on different cells of the 5 x 5 window
//! around you (not your own cell; listed in ascending order, since a game
//! is its set of robots), each teleport destination any cell of the window
//! (yours too, repeats allowed, in the order they are tried). One game an
//! input.
//!
//! No symmetry is used: whether the robots' chase and the teleports'
//! tie-breaks are the same under the board's reflections is what the
//! differential should check, not assume.

use crate::enumerate::{choose, only_itself, subset, Digits, Levels};
use lockstep_core::robots::{Case, Cell, Game, START};

pub const LEVELS: Levels<Case> = Levels {
    size: "robots + teleports, all within two cells of your start (at least one robot)",
    ci: 3,
    night: 4,
    span,
    case,
    count,
    images: only_itself,
    least: crate::enumerate::alone,
};

/// The window's cells, row by row, your own included.
const WINDOW: u64 = 25;

fn cell(i: u64) -> Cell {
    (START.0 - 2 + (i / 5) as u8, START.1 - 2 + (i % 5) as u8)
}

/// The window without your cell, for the robots.
fn robot_cell(i: u64) -> Cell {
    cell(if i >= 12 { i + 1 } else { i })
}

/// Each robot count `r` of size `s`: its indices.
fn part(s: u64, r: u64) -> u64 {
    choose(WINDOW - 1, r) * WINDOW.pow((s - r) as u32)
}

fn span(s: u32) -> u64 {
    let s = u64::from(s);
    (1..=s).map(|r| part(s, r)).sum()
}

fn case(s: u32, mut index: u64) -> Option<Case> {
    let s = u64::from(s);
    for r in 1..=s {
        if index >= part(s, r) {
            index -= part(s, r);
            continue;
        }
        let mut d = Digits(index);
        let robots = subset(WINDOW - 1, r, d.take(choose(WINDOW - 1, r)));
        let teleports = (r..s).map(|_| cell(d.take(WINDOW))).collect();
        return Some(Case {
            games: vec![Game {
                robots: robots.iter().copied().map(robot_cell).collect(),
                teleports,
            }],
        });
    }
    None
}

/// Every coordinate is a game: the sum over the robot counts of the robot
/// sets times the teleport sequences, as a closed form in the sizes.
fn count(s: u32) -> u64 {
    let s = u64::from(s);
    (1..=s)
        .map(|r| choose(24, r) * 25u64.pow((s - r) as u32))
        .sum()
}
