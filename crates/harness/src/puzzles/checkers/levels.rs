//! Checkers' levels: size `p` is every position of `p` pieces (each side at
//! least one; every square, man or king, no man on its own promotion row)
//! with either side to move, and one move of two squares: from any square
//! holding a piece of the side to move, to any of the 32 squares (the
//! steps, the jumps, and every move the rules forbid). One instance an
//! input; each side's pieces are listed in ascending square order.
//!
//! Symmetry: the board turned half round with the colours swapped (square
//! `s` to `33 - s`, the move's squares too) rules every move the same.

use crate::enumerate::{choose, subset, Digits, Levels};
use lockstep_core::checkers::{Case, Instance, Move, Piece, Side};

pub const LEVELS: Levels<Case> = Levels {
    size: "pieces (each side at least one), either side to move, one move from a piece of the side to move to any square",
    ci: 2,
    night: 3,
    span,
    case,
    count,
    images,
    least,
};

fn span(p: u32) -> u64 {
    let p = u64::from(p);
    choose(32, p) * 4u64.pow(p as u32) * 2 * p * 32
}

fn case(p: u32, index: u64) -> Option<Case> {
    let mut d = Digits(index);
    let placed = Placed::read(u64::from(p), &mut d)?;
    let (side, from) = placed.pieces[d.take(u64::from(p)) as usize];
    let to = d.take(32) as u32 + 1;
    // Half the coordinates move a piece of the side not to move: refused
    // before the position is built.
    if side != placed.to_move {
        return None;
    }
    let mut instance = placed.instance();
    instance.moves = vec![Move(vec![from, to])];
    Some(Case {
        instances: vec![instance],
    })
}

/// A position as read from an index, before any list is built: each
/// piece's side and square in square order (and whether it is a king),
/// and the side to move.
pub(crate) struct Placed {
    pub pieces: Vec<(Side, u32)>,
    kings: u32,
    pub to_move: Side,
}

impl Placed {
    /// A position of `p` pieces read from `d`: the squares (a subset),
    /// each piece's kind (red man, red king, white man, white king), the
    /// side to move. `None` for a man on its own promotion row or a side
    /// without pieces. Checkers perft's levels read their positions the
    /// same way.
    pub(crate) fn read(p: u64, d: &mut Digits) -> Option<Placed> {
        let squares = subset(32, p, d.take(choose(32, p)));
        let mut pieces = Vec::with_capacity(p as usize);
        let (mut kings, mut legal, mut reds) = (0u32, true, 0);
        for (i, &square) in squares.iter().enumerate() {
            let square = square as u32 + 1;
            let kind = d.take(4);
            let side = if kind < 2 { Side::Red } else { Side::White };
            let king = kind % 2 == 1;
            legal &= king || !side.promotes_on(square);
            kings |= u32::from(king) << i;
            reds += u64::from(side == Side::Red);
            pieces.push((side, square));
        }
        let to_move = d.pick(&[Side::Red, Side::White]);
        (legal && reds > 0 && reds < p).then_some(Placed {
            pieces,
            kings,
            to_move,
        })
    }

    /// The instance of this position, with no moves yet.
    pub(crate) fn instance(&self) -> Instance {
        let (mut red, mut white) = (Vec::new(), Vec::new());
        for (i, &(side, square)) in self.pieces.iter().enumerate() {
            let piece = Piece {
                square: square as u8,
                king: self.kings >> i & 1 == 1,
            };
            match side {
                Side::Red => red.push(piece),
                Side::White => white.push(piece),
            }
        }
        Instance {
            red,
            white,
            to_move: self.to_move,
            moves: Vec::new(),
        }
    }
}

/// Positions with both sides, by a table of (pieces, red pieces) over the
/// squares (each square empty, or one of the kinds it may hold); each has
/// as many moves as the side to move has pieces, times 32 targets, and
/// either side may move: 32 p times the positions.
fn count(p: u32) -> u64 {
    let p = p as usize;
    // ways[k][r]: k pieces placed, r of them red.
    let mut ways = vec![vec![0u64; 33]; 33];
    ways[0][0] = 1;
    for square in 1..=32u32 {
        let red_kinds = if Side::Red.promotes_on(square) { 1 } else { 2 };
        let white_kinds = if Side::White.promotes_on(square) {
            1
        } else {
            2
        };
        let mut next = ways.clone();
        // Only up to p pieces matter (more would overflow).
        for k in 0..p.min(32) {
            for r in 0..=k {
                let w = ways[k][r];
                next[k + 1][r + 1] += w * red_kinds;
                next[k + 1][r] += w * white_kinds;
            }
        }
        ways = next;
    }
    let positions: u64 = (1..p).map(|r| ways[p][r]).sum();
    positions * 32 * p as u64
}

/// One case of each class: the position with Red to move. Turning the
/// board swaps the side to move, so no position is its own image and every
/// class holds two.
fn least(case: &Case) -> Option<u64> {
    (case.instances[0].to_move == Side::Red).then_some(2)
}

fn images(case: &Case) -> Vec<Case> {
    let turned = Case {
        instances: vec![turned(&case.instances[0])],
    };
    vec![case.clone(), turned]
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
