//! Checkers perft's levels: sizes 2 and 3, and 5 for four pieces, are every
//! position of that many pieces (each side at least one; every square, man or
//! king, but no man on its own promotion row, which the statement rules out),
//! either side to move, and depth 1, 2 or 3. A position is its set of pieces: each side's pieces
//! are listed in ascending square order, and inputs that list the same
//! pieces in another order are the same position.
//!
//! Size 1, where no position of one piece has both sides, holds the
//! standard start instead, at depths 1, 2 and 3: the position every
//! published perft table counts from, behind 24 pieces that no level of
//! few pieces would reach.
//!
//! Size 4 holds a king's circuits: a king of the side to move and four men
//! of the other side, anywhere legal, at depth 1. A king that jumps four
//! pieces round a square ends where it began, by two paths (one each way
//! round) that leave the same position: perft counts every path, and only
//! these positions (a king and four pieces) tell a count of paths from a
//! count of positions. The four pieces a side of the full levels would
//! need 5 pieces in all, 1.2 billion positions; this slice is 2 million.
//!
//! Symmetry: the board turned half round with the colours swapped (square
//! `s` to `33 - s`, Red to White, the side to move too) has the same count.
//! The standard start's image (White to move) is in no level: it is a class
//! of its own.

use crate::enumerate::{choose, subset, Digits, Levels};
use lockstep_core::checkers::{Instance, Piece, Side};
use lockstep_core::checkers_perft::{start, Case};

pub const LEVELS: Levels<Case> = Levels {
    size: "pieces (each side at least one, kings or men anywhere legal), either side to move, depth 1..=3: 2 and 3 pieces at sizes 2 and 3, 4 pieces at size 5; size 1 the standard start; size 4 a king of the side to move and four men of the other, depth 1",
    ci: CIRCUITS,
    night: CIRCUITS + 1,
    last: 5,
    span,
    case,
    count,
    images,
    least,
    may_pick: crate::enumerate::any_index,
    next: crate::enumerate::every_index,
};

const DEPTHS: u64 = 3;

/// The size of the king's circuits.
const CIRCUITS: u32 = 4;

/// The pieces of every position of level `size`: size 5 is four pieces.
fn pieces(size: u32) -> u32 {
    if size == CIRCUITS + 1 {
        4
    } else if size > CIRCUITS {
        0
    } else {
        size
    }
}

fn span(size: u32) -> u64 {
    if size == 1 {
        return DEPTHS;
    }
    if size == CIRCUITS {
        return 2 * 32 * choose(31, 4);
    }
    let p = pieces(size);
    if p == 0 {
        return 0;
    }
    let p = u64::from(p);
    choose(32, p) * 4u64.pow(p as u32) * 2 * DEPTHS
}

fn case(size: u32, index: u64) -> Option<Case> {
    if size == 1 {
        return (index < DEPTHS).then(|| start(index as u32 + 1));
    }
    if size == CIRCUITS {
        return circuit(index);
    }
    let p = pieces(size);
    if p == 0 {
        return None;
    }
    let mut d = Digits(index);
    let placed = crate::puzzles::checkers::placed::Placed::read(u64::from(p), &mut d)?;
    let depth = d.take(DEPTHS) as u32 + 1;
    Some(Case {
        position: placed.instance(),
        depth,
    })
}

/// Case `index` of size 4: the king's colour (the side to move), its square,
/// and the four men's squares among the other 31; `None` for a man on its
/// own promotion row.
fn circuit(index: u64) -> Option<Case> {
    let mut d = Digits(index);
    let side = d.pick(&[Side::Red, Side::White]);
    let king = d.take(32) as u8 + 1;
    let others: Vec<u8> = (1..=32).filter(|&s| s != king).collect();
    let men: Vec<Piece> = subset(31, 4, d.take(choose(31, 4)))
        .iter()
        .map(|&i| Piece {
            square: others[i as usize],
            king: false,
        })
        .collect();
    if men
        .iter()
        .any(|m| side.opponent().promotes_on(u32::from(m.square)))
    {
        return None;
    }
    let kings = vec![Piece {
        square: king,
        king: true,
    }];
    let (red, white) = match side {
        Side::Red => (kings, men),
        Side::White => (men, kings),
    };
    Some(Case {
        position: Instance {
            red,
            white,
            to_move: side,
            moves: Vec::new(),
        },
        depth: 1,
    })
}

/// Size 4's count: for each colour of the king, the men's four squares
/// among the 31 others but off their 4 promotion squares: 27 left when the
/// king stands off that row (28 squares), 28 when on it (4 squares).
fn circuits() -> u64 {
    2 * (28 * choose(27, 4) + 4 * choose(28, 4))
}

/// The coefficient of x^p in the product over the squares of (1 + f x),
/// `f` the kinds a square may hold: 4, or 3 on the two back rows (no man
/// of the side that promotes there); less the positions of one colour
/// alone (2 kinds a square, 1 on that colour's promotion row); times the
/// sides to move and the depths.
fn count(size: u32) -> u64 {
    if size == 1 {
        return DEPTHS;
    }
    if size == CIRCUITS {
        return circuits();
    }
    let p = pieces(size);
    if p == 0 {
        return 0;
    }
    let coefficient = |middle: u64, red_row: u64, white_row: u64| {
        // 24 middle squares, 4 on Red's promotion row (29..=32), 4 on White's.
        let mut poly = vec![1u64];
        let factors = std::iter::repeat_n(middle, 24)
            .chain(std::iter::repeat_n(red_row, 4))
            .chain(std::iter::repeat_n(white_row, 4));
        // Only the degrees up to p matter (higher ones would overflow).
        for f in factors {
            let mut next = vec![0; (poly.len() + 1).min(p as usize + 1)];
            for (i, &c) in poly.iter().enumerate() {
                next[i] += c;
                if let Some(up) = next.get_mut(i + 1) {
                    *up += c * f;
                }
            }
            poly = next;
        }
        poly.get(p as usize).copied().unwrap_or(0)
    };
    let all = coefficient(4, 3, 3);
    let red_only = coefficient(2, 1, 2);
    let white_only = coefficient(2, 2, 1);
    (all - red_only - white_only) * 2 * DEPTHS
}

/// One case of each class: the position with Red to move (as for
/// checkers' levels: every class holds two).
fn least(case: &Case) -> Option<u64> {
    if is_start(case) {
        return Some(1);
    }
    (case.position.to_move == lockstep_core::checkers::Side::Red).then_some(2)
}

fn images(case: &Case) -> Vec<Case> {
    if is_start(case) {
        return vec![case.clone()];
    }
    let turned = Case {
        position: crate::puzzles::checkers::levels::turned(&case.position),
        depth: case.depth,
    };
    vec![case.clone(), turned]
}

/// Whether the case is the standard start (at any depth): size 1's.
pub(crate) fn is_start(case: &Case) -> bool {
    // The piece count first: every other level's positions have a few
    // pieces, and this runs on each case a run picks a class for.
    let p = &case.position;
    p.red.len() == 12 && p.white.len() == 12 && *p == start(case.depth).position
}
