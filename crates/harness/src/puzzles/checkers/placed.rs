//! A checkers position read from a level's index: the squares its pieces
//! stand on (a subset of the 32), each piece's kind and the side to move,
//! held in place (most positions read are refused). Checkers' and checkers
//! perft's levels both read their positions here.

use crate::enumerate::{choose, subset, Digits};
use lockstep_core::checkers::{Instance, Piece, Side};

/// A position as read from an index, before any list is built: each
/// piece's side and square in square order (and whether it is a king),
/// and the side to move.
pub(crate) struct Placed {
    /// The first `len` are the pieces; held in place, since most positions
    /// read are refused.
    pieces: [(Side, u32); MAX_PIECES],
    len: usize,
    kings: u32,
    pub to_move: Side,
}

/// The most pieces a level places (checkers perft's four men and a king).
const MAX_PIECES: usize = 5;

impl Placed {
    /// A position of `p` pieces read from `d`: the squares (a subset),
    /// each piece's kind (red man, red king, white man, white king), the
    /// side to move. `None` for a man on its own promotion row or a side
    /// without pieces. Checkers perft's levels read their positions the
    /// same way.
    pub(crate) fn read(p: u64, d: &mut Digits) -> Option<Placed> {
        assert!(p as usize <= MAX_PIECES, "{p} pieces");
        let squares = subset(32, p, d.take(choose(32, p)));
        let mut pieces = [(Side::Red, 0); MAX_PIECES];
        let (mut kings, mut legal, mut reds) = (0u32, true, 0);
        for (i, &square) in squares.iter().enumerate() {
            let square = square as u32 + 1;
            let kind = d.take(4);
            let side = if kind < 2 { Side::Red } else { Side::White };
            let king = kind % 2 == 1;
            legal &= king || !side.promotes_on(square);
            kings |= u32::from(king) << i;
            reds += u64::from(side == Side::Red);
            pieces[i] = (side, square);
        }
        let to_move = d.pick(&[Side::Red, Side::White]);
        (legal && reds > 0 && reds < p).then_some(Placed {
            pieces,
            len: p as usize,
            kings,
            to_move,
        })
    }

    /// Each piece's side and square, in square order.
    pub(crate) fn pieces(&self) -> &[(Side, u32)] {
        &self.pieces[..self.len]
    }

    /// The instance of this position, with no moves yet.
    pub(crate) fn instance(&self) -> Instance {
        let (mut red, mut white) = (Vec::new(), Vec::new());
        for (i, &(side, square)) in self.pieces().iter().enumerate() {
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
