//! Checkers perft's levels: size `p` is every position of `p` pieces (each
//! side at least one; every square, man or king, but no man on its own
//! promotion row, which the statement rules out), either side to move, and
//! depth 1, 2 or 3. A position is its set of pieces: each side's pieces
//! are listed in ascending square order, and inputs that list the same
//! pieces in another order are the same position.
//!
//! Size 1, where no position of one piece has both sides, holds the
//! standard start instead, at depths 1, 2 and 3: the position every
//! published perft table counts from, behind 24 pieces that no level of
//! few pieces would reach.
//!
//! Symmetry: the board turned half round with the colours swapped (square
//! `s` to `33 - s`, Red to White, the side to move too) has the same count.
//! The standard start's image (White to move) is in no level: it is a class
//! of its own.

use crate::enumerate::{choose, Digits, Levels};
use lockstep_core::checkers_perft::{start, Case};

pub const LEVELS: Levels<Case> = Levels {
    size: "pieces (each side at least one, kings or men anywhere legal), either side to move, depth 1..=3; size 1 the standard start",
    ci: 3,
    night: 4,
    span,
    case,
    count,
    images,
    least,
};

const DEPTHS: u64 = 3;

fn span(p: u32) -> u64 {
    if p == 1 {
        return DEPTHS;
    }
    let p = u64::from(p);
    choose(32, p) * 4u64.pow(p as u32) * 2 * DEPTHS
}

fn case(p: u32, index: u64) -> Option<Case> {
    if p == 1 {
        return (index < DEPTHS).then(|| start(index as u32 + 1));
    }
    let mut d = Digits(index);
    let placed = crate::puzzles::checkers::levels::Placed::read(u64::from(p), &mut d)?;
    let depth = d.take(DEPTHS) as u32 + 1;
    Some(Case {
        position: placed.instance(),
        depth,
    })
}

/// The coefficient of x^p in the product over the squares of (1 + f x),
/// `f` the kinds a square may hold: 4, or 3 on the two back rows (no man
/// of the side that promotes there); less the positions of one colour
/// alone (2 kinds a square, 1 on that colour's promotion row); times the
/// sides to move and the depths.
fn count(p: u32) -> u64 {
    if p == 1 {
        return DEPTHS;
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
