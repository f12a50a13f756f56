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

/// Up to this many pieces, the squares are read from a table of every
/// subset (5,489 of them) rather than decoded: checkers' levels read a
/// position for every index, and `subset` alone was 4% of verify's
/// samples (perf, `verify checkers --scope ci`).
const TABLED: u64 = 3;

/// The squares (0 to 31, ascending) of subset `rank` of `p` squares, in
/// [`subset`]'s order.
fn squares(p: u64, rank: u64) -> [u8; MAX_PIECES] {
    static TABLES: std::sync::OnceLock<Vec<Vec<[u8; MAX_PIECES]>>> = std::sync::OnceLock::new();
    let decode = |p: u64, rank: u64| {
        let mut out = [0; MAX_PIECES];
        for (o, &s) in out.iter_mut().zip(subset(32, p, rank).iter()) {
            *o = s as u8;
        }
        out
    };
    if p > TABLED {
        return decode(p, rank);
    }
    let tables = TABLES.get_or_init(|| {
        (0..=TABLED)
            .map(|p| (0..choose(32, p)).map(|rank| decode(p, rank)).collect())
            .collect()
    });
    tables[p as usize][rank as usize]
}

impl Placed {
    /// A position of `p` pieces read from `d`: the squares (a subset),
    /// each piece's kind (red man, red king, white man, white king), the
    /// side to move. `None` for a man on its own promotion row or a side
    /// without pieces. Checkers perft's levels read their positions the
    /// same way.
    pub(crate) fn read(p: u64, d: &mut Digits) -> Option<Placed> {
        assert!(p as usize <= MAX_PIECES, "{p} pieces");
        let squares = squares(p, d.take(choose(32, p)));
        let mut pieces = [(Side::Red, 0); MAX_PIECES];
        let (mut kings, mut legal, mut reds) = (0u32, true, 0);
        for (i, &square) in squares[..p as usize].iter().enumerate() {
            let square = u32::from(square) + 1;
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
        let reds = self
            .pieces()
            .iter()
            .filter(|(side, _)| *side == Side::Red)
            .count();
        let (mut red, mut white) = (
            Vec::with_capacity(reds),
            Vec::with_capacity(self.len - reds),
        );
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
