//! Jump paths built to order, the part of level 3 that blind enumeration
//! cannot reach: a king's circuit of four jumps needs five pieces and a
//! four-leg move, where the shapes hold at most three pieces and two legs.
//!
//! For every square and a man or a king of the side to move on it, every
//! path of two to four jumps its geometry allows (a man forward only; no
//! piece jumped twice; a landing on an empty square, the vacated start
//! included, so that a king may come back to where it began), with an
//! opponent man on each jumped square (a jump's middle square is never on
//! a promotion row). Then no other piece, or one more piece of either
//! side, man or king, on any free square (a landing square too: the path
//! is then blocked there). A case is that position with one instance for
//! each stop along the path (one jump, two, ...), so that the path written
//! whole and each move stopped short are both asked: a jump stopped while
//! another is due, a king's jumps over its far row, a circuit back to the
//! start. Paths of one jump are left out: the shapes hold their positions.
//!
//! A man's path ends on its promotion row at the latest (it has no forward
//! jump from there), so the crowning that ends a move is its last stop.
//! With Red to move and White to move (the board turned,
//! [`super::shapes::turned`]), each class holds two cases, as the rest of
//! the levels.

use super::shapes::{coordinates, turned};
use lockstep_core::checkers::{Case, Instance, Move, Piece, Side};
use std::sync::OnceLock;

/// The fewest and the most jumps a built path has.
const FEWEST: usize = 2;
const LEGS: usize = 4;

/// A path for a Red piece: its start, man or king, the landings and the
/// squares jumped.
struct Path {
    start: u32,
    king: bool,
    landings: Vec<u32>,
    jumped: Vec<u32>,
}

/// The extra piece's choices: none, or one of four kinds (Red man, Red
/// king, White man, White king) on one of 32 squares.
const EXTRA: u64 = 1 + 32 * 4;

/// Every path, for a Red man and a Red king from every square.
fn paths() -> &'static [Path] {
    static ALL: OnceLock<Vec<Path>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for king in [false, true] {
            for start in 1..=32 {
                if !king && promotion(Side::Red, start) {
                    continue;
                }
                let mut path = Path {
                    start,
                    king,
                    landings: Vec::new(),
                    jumped: Vec::new(),
                };
                extend(&mut path, &mut all);
            }
        }
        all
    })
}

/// Every longer path from `path` pushed onto `all`, each after its own
/// shorter ones.
fn extend(path: &mut Path, all: &mut Vec<Path>) {
    if path.landings.len() == LEGS {
        return;
    }
    let at = path.landings.last().copied().unwrap_or(path.start);
    for (over, land) in jumps(at, path.king) {
        let taken = |s: u32| path.jumped.contains(&s);
        if taken(over) || over == path.start || path.landings.contains(&over) || taken(land) {
            continue;
        }
        path.jumped.push(over);
        path.landings.push(land);
        if path.landings.len() >= FEWEST {
            all.push(Path {
                start: path.start,
                king: path.king,
                landings: path.landings.clone(),
                jumped: path.jumped.clone(),
            });
        }
        extend(path, all);
        path.jumped.pop();
        path.landings.pop();
    }
}

/// The jumps of a Red piece from `at` that stay on the board: (over,
/// landing); a man's forward only (toward larger rows).
fn jumps(at: u32, king: bool) -> Vec<(u32, u32)> {
    let (row, column) = coordinates(at);
    let square = |r: i32, c: i32| {
        ((0..8).contains(&r) && (0..8).contains(&c)).then(|| (r * 4 + c / 2 + 1) as u32)
    };
    [(1, -1), (1, 1), (-1, -1), (-1, 1)]
        .into_iter()
        .filter(|d| king || d.0 == 1)
        .filter_map(|(dr, dc)| {
            Some((
                square(row + dr, column + dc)?,
                square(row + 2 * dr, column + 2 * dc)?,
            ))
        })
        .collect()
}

/// Whether square `s` is `side`'s promotion row, where its man may not stand.
fn promotion(side: Side, s: u32) -> bool {
    match side {
        Side::Red => s >= 29,
        Side::White => s <= 4,
    }
}

/// The indexes of the built part: the side to move (the fastest digit, so
/// that with symmetry every other index is skipped), the extra piece, the
/// path.
pub(super) fn span() -> u64 {
    2 * EXTRA * paths().len() as u64
}

/// Whether the built case at `index` has Red to move.
pub(super) fn red_to_move(index: u64) -> bool {
    index.is_multiple_of(2)
}

/// The built case at `index`: `None` where the extra piece would stand on
/// the path's start or a jumped square, or a man on its promotion row.
pub(super) fn case(index: u64) -> Option<Case> {
    let (side, extra, path) = (index % 2, index / 2 % EXTRA, index / 2 / EXTRA);
    let path = paths().get(path as usize)?;
    let mut red = vec![Piece {
        square: path.start as u8,
        king: path.king,
    }];
    let mut white: Vec<Piece> = path
        .jumped
        .iter()
        .map(|&s| Piece {
            square: s as u8,
            king: false,
        })
        .collect();
    if extra > 0 {
        let (square, kind) = ((extra - 1) / 4 + 1, (extra - 1) % 4);
        let square = square as u32;
        let (owner, king) = match kind {
            0 => (Side::Red, false),
            1 => (Side::Red, true),
            2 => (Side::White, false),
            _ => (Side::White, true),
        };
        let used = square == path.start || path.jumped.contains(&square);
        if used || !king && promotion(owner, square) {
            return None;
        }
        let piece = Piece {
            square: square as u8,
            king,
        };
        match owner {
            Side::Red => red.push(piece),
            Side::White => white.push(piece),
        }
    }
    red.sort_by_key(|p| p.square);
    white.sort_by_key(|p| p.square);
    let instances = (1..=path.landings.len())
        .map(|legs| {
            let mut squares = vec![path.start];
            squares.extend(&path.landings[..legs]);
            let instance = Instance {
                red: red.clone(),
                white: white.clone(),
                to_move: Side::Red,
                moves: vec![Move(squares)],
            };
            match side {
                0 => instance,
                _ => turned(&instance),
            }
        })
        .collect();
    Some(Case { instances })
}

/// The built cases counted without decoding: for each path, counted by a
/// walk of its own, one case with no extra piece and one for each kind a
/// free square may hold (four, less a man on its promotion row), twice for
/// the side to move.
pub(super) fn count() -> u64 {
    // The kinds a square may hold: 120 on the board in all.
    let kinds =
        |s: u32| 4 - u64::from(promotion(Side::Red, s)) - u64::from(promotion(Side::White, s));
    let all: u64 = (1..=32).map(kinds).sum();
    fn walk(
        start: u32,
        at: u32,
        king: bool,
        jumped: &mut Vec<u32>,
        landed: &mut Vec<u32>,
        weight: &dyn Fn(&[u32]) -> u64,
    ) -> u64 {
        let mut total = 0;
        if landed.len() < LEGS {
            for (over, land) in jumps(at, king) {
                if jumped.contains(&over)
                    || over == start
                    || landed.contains(&over)
                    || jumped.contains(&land)
                {
                    continue;
                }
                jumped.push(over);
                landed.push(land);
                let counted = if landed.len() >= FEWEST {
                    weight(jumped)
                } else {
                    0
                };
                total += counted + walk(start, land, king, jumped, landed, weight);
                jumped.pop();
                landed.pop();
            }
        }
        total
    }
    let mut total = 0;
    for king in [false, true] {
        for start in (1..=32).filter(|&s| king || !promotion(Side::Red, s)) {
            let weight = |jumped: &[u32]| {
                1 + all - kinds(start) - jumped.iter().map(|&s| kinds(s)).sum::<u64>()
            };
            total += walk(
                start,
                start,
                king,
                &mut Vec::new(),
                &mut Vec::new(),
                &weight,
            );
        }
    }
    2 * total
}

#[cfg(test)]
mod tests;
