//! The robots generator's random games: few robots close to you (long
//! chases, forced teleports), pairs and lines of robots that collide into
//! debris you then push, teleport lists with occupied, repeated and nearby
//! cells; and the placements `boundary.rs` builds its games from. The
//! adapter draws one game in three at a rule boundary, the others here.

use arbitrary::Unstructured;
use lockstep_core::robots::{Cell, Game, MAX_ROBOTS, MAX_TELEPORTS, SIZE, START};

/// A cell within `radius` of `centre` (clamped to the board).
pub(super) fn near(u: &mut Unstructured<'_>, centre: Cell, radius: u8) -> arbitrary::Result<Cell> {
    let shift = |u: &mut Unstructured<'_>, v: u8| -> arbitrary::Result<u8> {
        let d = u.int_in_range(0..=2 * radius)?;
        Ok((v + d).saturating_sub(radius).clamp(1, SIZE))
    };
    Ok((shift(u, centre.0)?, shift(u, centre.1)?))
}

pub(super) fn anywhere(u: &mut Unstructured<'_>) -> arbitrary::Result<Cell> {
    Ok((u.int_in_range(1..=SIZE)?, u.int_in_range(1..=SIZE)?))
}

/// The next free cell after `cell` in row-major order (wrapping), skipping (15,15).
pub(super) fn free_from(mut cell: Cell, taken: &[Cell]) -> Cell {
    while cell == START || taken.contains(&cell) {
        cell = if cell.1 < SIZE {
            (cell.0, cell.1 + 1)
        } else if cell.0 < SIZE {
            (cell.0 + 1, 1)
        } else {
            (1, 1)
        };
    }
    cell
}

/// A game of random robots and teleports around you (the games not built
/// at a rule boundary: see the adapter's generator).
pub(super) fn random_game(u: &mut Unstructured<'_>) -> arbitrary::Result<Game> {
    let count = match u.int_in_range(0..=9u8)? {
        0..=4 => u.int_in_range(1..=4)?,
        5..=7 => u.int_in_range(5..=15)?,
        _ => u.int_in_range(16..=MAX_ROBOTS)?,
    };
    let mode = u.int_in_range(0..=3u8)?;
    let radius = u.int_in_range(2..=7u8)?;
    let robots = place_robots(u, count, mode, radius)?;
    let list = teleport_list(u, &robots)?;
    Ok(Game {
        robots,
        teleports: list,
    })
}

/// `count` robots on distinct cells (none on `START`) in robot mode `mode`
/// (the rule page's rule index lists the modes) within `radius` of you.
pub(super) fn place_robots(
    u: &mut Unstructured<'_>,
    count: usize,
    mode: u8,
    radius: u8,
) -> arbitrary::Result<Vec<Cell>> {
    let mut robots: Vec<Cell> = Vec::with_capacity(count);
    while robots.len() < count {
        let cell = match mode {
            0 => near(u, START, radius)?,
            1 => anywhere(u)?,
            // Pairs two cells apart: they step onto one cell and leave debris.
            2 if robots.len() % 2 == 1 => {
                let (r, c) = robots[robots.len() - 1];
                if u.ratio(1, 2)? {
                    (r, if c + 2 <= SIZE { c + 2 } else { c - 2 })
                } else {
                    (if r + 2 <= SIZE { r + 2 } else { r - 2 }, c)
                }
            }
            2 => near(u, START, radius + 3)?,
            // A line through a cell near you: robots that collide along it.
            _ => {
                let base = near(u, START, radius)?;
                let along = u.int_in_range(1..=SIZE)?;
                if u.ratio(1, 2)? {
                    (base.0, along)
                } else {
                    (along, base.1)
                }
            }
        };
        let cell = free_from(cell, &robots);
        robots.push(cell);
    }
    Ok(robots)
}

/// A teleport list of 0 to 20 cells: near you, on a robot's start, repeated,
/// `START` itself, or anywhere.
pub(super) fn teleport_list(
    u: &mut Unstructured<'_>,
    robots: &[Cell],
) -> arbitrary::Result<Vec<Cell>> {
    let teleports = match u.int_in_range(0..=9u8)? {
        0..=2 => 0,
        3..=7 => u.int_in_range(1..=6)?,
        _ => u.int_in_range(7..=MAX_TELEPORTS)?,
    };
    let mut list: Vec<Cell> = Vec::with_capacity(teleports);
    for _ in 0..teleports {
        let cell = match u.int_in_range(0..=5u8)? {
            0 => near(u, START, 3)?,
            // On a robot's start: occupied, at least at first.
            1 => *u.choose(robots)?,
            // Repeated: passed over once used.
            2 if !list.is_empty() => *u.choose(&list)?,
            3 => START,
            _ => anywhere(u)?,
        };
        list.push(cell);
    }
    Ok(list)
}
