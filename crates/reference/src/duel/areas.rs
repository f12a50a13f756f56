//! The yard and the areas of the rule text: each area built as a list of
//! cells, clipped to the yard, every time it is asked for.

use lockstep_core::duel::{Cell, Dir};

pub(super) fn on_yard(cell: Cell) -> bool {
    cell.0 >= 1 && cell.0 <= 7 && cell.1 >= 1 && cell.1 <= 7
}

pub(super) fn offset(cell: Cell, d: Dir, k: i8) -> Cell {
    let (dr, dc) = d.delta();
    (cell.0 + k * dr, cell.1 + k * dc)
}

/// The directions to the left and right of facing `d` (straight directions only).
fn sides(d: Dir) -> (Dir, Dir) {
    match d {
        Dir::U => (Dir::L, Dir::R),
        Dir::R => (Dir::U, Dir::D),
        Dir::D => (Dir::R, Dir::L),
        Dir::L => (Dir::D, Dir::U),
        _ => unreachable!("only dash goes diagonally"),
    }
}

/// "Front cell k is k cells away in that direction."
fn front(cell: Cell, d: Dir, k: i8) -> Cell {
    offset(cell, d, k)
}

/// "The three cells of the row in front (front-left, front, front-right)."
fn front_row(cell: Cell, d: Dir) -> Vec<Cell> {
    let (left, right) = sides(d);
    let f = front(cell, d, 1);
    vec![offset(f, left, 1), f, offset(f, right, 1)]
}

/// "Only cells inside the yard belong to an attack or guard area."
fn in_yard(cells: Vec<Cell>) -> Vec<Cell> {
    cells.into_iter().filter(|&c| on_yard(c)).collect()
}

pub(super) fn thrust_area(cell: Cell, d: Dir) -> Vec<Cell> {
    in_yard(vec![front(cell, d, 1), front(cell, d, 2)])
}

pub(super) fn sweep_area(cell: Cell, d: Dir) -> Vec<Cell> {
    let (left, right) = sides(d);
    let mut cells = front_row(cell, d);
    cells.push(offset(cell, left, 1));
    cells.push(offset(cell, right, 1));
    in_yard(cells)
}

pub(super) fn charge_area(cell: Cell, d: Dir) -> Vec<Cell> {
    in_yard(vec![front(cell, d, 1), front(cell, d, 2)])
}

pub(super) fn break_area(cell: Cell, d: Dir) -> Vec<Cell> {
    in_yard(vec![front(cell, d, 1)])
}

pub(super) fn guard_area(cell: Cell, d: Dir) -> Vec<Cell> {
    let mut cells = front_row(cell, d);
    cells.push(front(cell, d, 2));
    in_yard(cells)
}
