//! Checkers' levels: few pieces, and every kind of written move they can
//! make. A level is a short list of *shapes*: a number of pieces and the
//! moves of the game, each move a start square and its legs. Every position
//! of those pieces (each side at least one; every square, man or king, no
//! man on its own promotion row) with either side to move, every start
//! square holding a piece of the side whose move it is (in the position as
//! given: a piece captured or moved before is a start square left empty),
//! and every leg of its kind:
//!
//! - `Any`: to any of the 32 squares (the steps and jumps, and every move
//!   the rules forbid: off the diagonals, backward, too long); a move of one
//!   leg only. A square off 1..=32 is outside the statement's limits, which
//!   verify's levels keep to: `fuzz --limits wide` writes those;
//! - `Diagonal`: one of the eight diagonal legs, a step or a jump each way,
//!   landing on the board;
//! - `Jump`: one of the four diagonal jumps, landing on the board.
//!
//! | size | pieces | moves |
//! |---:|---:|---|
//! | 1 | 2 | one move, `Any` |
//! | 2 | 2 | one move of two `Diagonal` legs, or two moves of one |
//! | 3 | 3 | one move, `Diagonal` or `Jump Jump`; and the jump paths built to order (`built.rs`): 2 to 4 jumps, 3 to 6 pieces |
//! | 4 to 60 | 2 a side to begin with | explored games: the positions first reached at depth 0 to 56 ([`explore`]) |
//! | 61 | 3 | one move, `Any`; one of two `Diagonal` legs, or two of one |
//!
//! So the first level already steps, jumps, crowns, moves kings and writes
//! every shape of illegal move; the second plays two moves (the second
//! ignored after an illegal first), several steps, a step after a jump or a
//! crowning; the third steps while another piece must jump, multi-jumps,
//! stops a jump short and jumps on after a crowning, and its paths built to
//! order jump up to four times (a king's circuit back to its start square
//! among them). Sizes 4 to 60 are the
//! games: every position reachable from two men a side, breadth-first, one
//! depth a size, with every legal move and its near-misses asked at each
//! (their cases are the explorer's, [`explore`]); the last, 61, writes every
//! move of the first two from positions of three pieces. Levels past 61 are
//! empty. One instance an input for the shapes; each side's pieces are
//! listed in ascending square order.
//!
//! Symmetry: the board turned half round with the colours swapped (square
//! `s` to `33 - s`, the moves' squares too) rules every move the same, and
//! maps each shape onto itself.

use super::built;
use super::explore;
use super::placed::Placed;
pub(crate) use super::shapes::turned;
use super::shapes::{coordinates, shapes, Leg, Shape, LAST, MAX_LEGS, MAX_MOVES};
use crate::enumerate::{choose, Digits, Levels};
use lockstep_core::checkers::{Case, Move, Side};
use Leg::{Any, Diagonal, Jump};

pub const LEVELS: Levels<Case> = Levels {
    size: "few pieces and every kind of written move: 1 two pieces, a move to any square; 2 two pieces, two diagonal legs in one move or two; 3 three pieces, a diagonal leg or two jumps, and jump paths of 2 to 4 jumps built to order; 4 to 60 the games of two men a side, explored breadth-first, size 4 + d the positions first reached after d moves, each with every legal move and its near-misses; 61 three pieces, all of 1 and 2",
    ci: explore::FIRST + CI_DEPTH,
    night: LAST,
    last: LAST,
    span,
    case,
    count: super::count::count,
    images,
    least,
    may_pick,
    next,
};

/// The deepest explored layer of the CI scope: kings move from depth 11,
/// and at depth 21 a man crowned by a jump could jump on and a king's
/// double jump passes its far row (the planted bugs of those rules show
/// there first: `the_explored_games_find_the_planted_checkers_bugs_of_their_moves`).
const CI_DEPTH: u32 = 21;

impl Shape {
    /// Its indices: the positions (squares, kinds, side to move), then per
    /// move a start among the pieces and each leg's digit.
    fn span(&self) -> u64 {
        let p = u64::from(self.pieces);
        let moves: u64 = self
            .moves
            .iter()
            .map(|legs| p * legs.iter().map(|l| l.radix()).product::<u64>())
            .product();
        choose(32, p) * 4u64.pow(self.pieces) * 2 * moves
    }

    fn case(&self, index: u64) -> Option<Case> {
        // An index whose start is not the mover's is refused by the moves'
        // loop below; verify never asks for one, since `next` skips their
        // runs ([`Shape::starts_on_the_mover`]).
        let mut d = Digits(index);
        let placed = Placed::read(u64::from(self.pieces), &mut d)?;
        // Most indexes name no case (a start square of the side not to
        // move, a leg off the board): they are refused before anything is
        // allocated, on the moves' squares held in place.
        let mut squares = [[0u32; MAX_LEGS + 1]; MAX_MOVES];
        assert!(self.moves.len() <= MAX_MOVES && self.moves.iter().all(|l| l.len() <= MAX_LEGS));
        let mut mover = placed.to_move;
        for (legs, written) in self.moves.iter().zip(&mut squares) {
            let (side, from) = placed.pieces()[d.take(u64::from(self.pieces)) as usize];
            if side != mover {
                return None;
            }
            written[0] = from;
            let mut at = from;
            for (&leg, square) in legs.iter().zip(&mut written[1..]) {
                let digit = d.take(leg.radix()) as u32;
                at = match leg {
                    Any => digit + 1,
                    Diagonal => diagonal(at, digit % 4, 1 + digit / 4)?,
                    Jump => diagonal(at, digit, 2)?,
                };
                *square = at;
            }
            mover = mover.opponent();
        }
        let mut instance = placed.instance();
        instance.moves.reserve_exact(self.moves.len());
        for (legs, written) in self.moves.iter().zip(&squares) {
            instance.moves.push(Move(written[..=legs.len()].to_vec()));
        }
        Some(Case {
            instances: vec![instance],
        })
    }
}

impl Shape {
    /// Whether every move of the case at `index` starts on a piece of the
    /// side whose move it is, read off the kinds', side's and starts'
    /// digits alone: six indexes in seven of the third level fail it, and
    /// are refused before the pieces are placed.
    fn starts_on_the_mover(&self, index: u64) -> bool {
        let p = u64::from(self.pieces);
        let squares = choose(32, p);
        let kinds_span = 4u64.pow(self.pieces);
        let kinds = index / squares % kinds_span;
        let mut mover = self.side_digit(index);
        let mut rest = index / (squares * kinds_span * 2);
        for legs in self.moves {
            let start = rest % p;
            // Kinds 0 and 1 are Red's (man, king), 2 and 3 White's; the
            // side digit is 0 for Red.
            let side = u64::from(kinds / 4u64.pow(start as u32) % 4 >= 2);
            if side != mover {
                return false;
            }
            rest = rest / p / legs.iter().map(|l| l.radix()).product::<u64>();
            mover ^= 1;
        }
        true
    }

    /// The side-to-move digit of the position at `index` (0 Red, 1 White),
    /// after the squares' and the kinds' digits ([`Placed::read`]'s order).
    fn side_digit(&self, index: u64) -> u64 {
        index / (choose(32, u64::from(self.pieces)) * 4u64.pow(self.pieces)) % 2
    }
}

/// The square `distance` (1 or 2) cells from `from` along `direction`
/// (0 up-left, 1 up-right, 2 down-left, 3 down-right), if on the board.
fn diagonal(from: u32, direction: u32, distance: u32) -> Option<u32> {
    let (row, column) = coordinates(from);
    let d = distance as i32;
    let row = row + if direction < 2 { -d } else { d };
    let column = column + if direction.is_multiple_of(2) { -d } else { d };
    ((0..8).contains(&row) && (0..8).contains(&column)).then(|| (row * 4 + column / 2 + 1) as u32)
}

fn span(size: u32) -> u64 {
    if let Some(depth) = explore::depth(size) {
        return explore::span(depth);
    }
    shapes(size).iter().map(Shape::span).sum::<u64>() + built_span(size)
}

/// The indexes of the jump paths built to order, after the shapes of
/// size 3 ([`built`]).
fn built_span(size: u32) -> u64 {
    match size {
        3 => built::span(),
        _ => 0,
    }
}

fn case(size: u32, mut index: u64) -> Option<Case> {
    if let Some(depth) = explore::depth(size) {
        return explore::case(depth, index);
    }
    for shape in shapes(size) {
        let span = shape.span();
        if index < span {
            return shape.case(index);
        }
        index -= span;
    }
    (index < built_span(size))
        .then(|| built::case(index))
        .flatten()
}

/// One case of each class: the position with Red to move. Turning the
/// board swaps the side to move, so no position is its own image and every
/// class holds two.
/// Red to move, read off the index: the side digit of a shape's position,
/// or an explored layer's even index.
fn may_pick(size: u32, mut index: u64) -> bool {
    if explore::depth(size).is_some() {
        return index.is_multiple_of(2);
    }
    for shape in shapes(size) {
        let span = shape.span();
        if index < span {
            return shape.side_digit(index) == 0;
        }
        index -= span;
    }
    index >= built_span(size) || built::red_to_move(index)
}

/// The first index at or after `index` that may hold a checked case: a
/// shape's indexes come in runs of one position of the squares (`C(32, p)`
/// indexes) that share the kinds, the side to move and the starts, so a run
/// whose start is not the mover's, or (with symmetry) whose side to move is
/// White, is skipped whole. Three in four of the third level's 45.7 million
/// indexes are skipped so; the explored levels skip an image (odd index)
/// with symmetry.
fn next(size: u32, mut index: u64, symmetry: bool) -> u64 {
    if explore::depth(size).is_some() {
        return index + u64::from(symmetry && index % 2 == 1);
    }
    let mut before = 0;
    for shape in shapes(size) {
        let span = shape.span();
        if index < span {
            let squares = choose(32, u64::from(shape.pieces));
            let sides = squares * 4u64.pow(shape.pieces) * 2;
            let skip_to = if symmetry && shape.side_digit(index) != 0 {
                // To the next run with Red to move.
                (index / sides + 1) * sides
            } else if !shape.starts_on_the_mover(index) {
                (index / squares + 1) * squares
            } else {
                index
            };
            return before + skip_to.min(span);
        }
        index -= span;
        before += span;
    }
    // The built paths: White to move at every odd index.
    let white = index < built_span(size) && !built::red_to_move(index);
    before + index + u64::from(symmetry && white)
}

fn least(case: &Case) -> Option<u64> {
    (case.instances[0].to_move == Side::Red).then_some(2)
}

fn images(case: &Case) -> Vec<Case> {
    let turned = Case {
        instances: case.instances.iter().map(turned).collect(),
    };
    vec![case.clone(), turned]
}

#[cfg(test)]
mod tests;
