//! The shapes of checkers' first levels and the last (docs in
//! [`super::levels`]): a number of pieces and the legs of each move of the
//! game, what the levels decode (levels.rs) and count another way
//! (count.rs) alike.

use super::explore;
use lockstep_core::checkers::{Instance, Move, Piece, Side};

/// The most moves a shape writes, and legs a move has.
pub(super) const MAX_MOVES: usize = 2;
pub(super) const MAX_LEGS: usize = 2;

/// A leg of a written move, by what it may land on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Leg {
    /// Any square 1..=32; only as a move's one leg.
    Any,
    /// A diagonal step or jump, on the board.
    Diagonal,
    /// A diagonal jump, on the board.
    Jump,
}

impl Leg {
    pub(super) const fn radix(self) -> u64 {
        match self {
            Leg::Any => 32,
            Leg::Diagonal => 8,
            Leg::Jump => 4,
        }
    }
}

/// The pieces of a position and the legs of each move of its game.
pub(super) struct Shape {
    pub(super) pieces: u32,
    pub(super) moves: &'static [&'static [Leg]],
}

use Leg::{Any, Diagonal, Jump};

/// Each level's shapes, in the order their indices come.
const SHAPES: [&[Shape]; 4] = [
    &[Shape {
        pieces: 2,
        moves: &[&[Any]],
    }],
    &[
        Shape {
            pieces: 2,
            moves: &[&[Diagonal, Diagonal]],
        },
        Shape {
            pieces: 2,
            moves: &[&[Diagonal], &[Diagonal]],
        },
    ],
    &[
        Shape {
            pieces: 3,
            moves: &[&[Diagonal]],
        },
        Shape {
            pieces: 3,
            moves: &[&[Jump, Jump]],
        },
    ],
    &[
        Shape {
            pieces: 3,
            moves: &[&[Any]],
        },
        Shape {
            pieces: 3,
            moves: &[&[Diagonal, Diagonal]],
        },
        Shape {
            pieces: 3,
            moves: &[&[Diagonal], &[Diagonal]],
        },
    ],
];

/// The shapes of level `size`: sizes 1 to 3, and the last level, after the
/// explored ones (three pieces and every written move, a night's work).
pub(super) fn shapes(size: u32) -> &'static [Shape] {
    match size {
        1..=3 => SHAPES[size as usize - 1],
        LAST => SHAPES[3],
        _ => &[],
    }
}

/// The last level: the one after the explored depths.
pub(super) const LAST: u32 = explore::FIRST + explore::LAST_DEPTH + 1;

/// Square `s`'s row and column (docs/guide/src/rules/checkers.md, "Board and
/// numbering").
pub(super) fn coordinates(s: u32) -> (i32, i32) {
    let row = (s - 1) / 4;
    let column = 2 * ((s - 1) % 4) + u32::from(row.is_multiple_of(2));
    (row as i32, column as i32)
}

/// An instance on the board turned half round with the colours swapped:
/// square `s` is `33 - s` (the pieces', and the moves'), Red is White.
pub(crate) fn turned(i: &Instance) -> Instance {
    let turn = |pieces: &[Piece]| -> Vec<Piece> {
        let mut out: Vec<Piece> = pieces
            .iter()
            .map(|p| Piece {
                square: 33 - p.square,
                king: p.king,
            })
            .collect();
        out.sort_by_key(|p| p.square);
        out
    };
    Instance {
        red: turn(&i.white),
        white: turn(&i.red),
        to_move: match i.to_move {
            Side::Red => Side::White,
            Side::White => Side::Red,
        },
        moves: i
            .moves
            .iter()
            .map(|m| Move(m.0.iter().map(|&s| 33 - s).collect()))
            .collect(),
    }
}
