//! Checkers' levels counted another way than by decoding their indexes
//! ([`crate::enumerate::Levels::count`], what the tests hold the decoding
//! to): the shapes' positions walked square by square, and the explored
//! levels' layers counted on the layer.

use super::explore;
use super::shapes::{coordinates, shapes, Leg, Shape};
use lockstep_core::checkers::Side;
use Leg::{Any, Jump};

/// The valid cases, counted without decoding an index: the positions
/// walked square by square (each square empty, or one of the sides with
/// the kinds it may hold there), and for each the game's ways: per move,
/// the on-board leg sequences from each start square of the side to move,
/// counted on the board's rows and columns.
pub(super) fn count(size: u32) -> u64 {
    if let Some(depth) = explore::depth(size) {
        return explore::count(depth);
    }
    let built = match size {
        3 => super::built::count(),
        _ => 0,
    };
    shapes(size).iter().map(count_shape).sum::<u64>() + built
}

fn count_shape(shape: &Shape) -> u64 {
    // ways[m][s]: the legs of move m that stay on the board from square s.
    let ways: Vec<Vec<u64>> = shape
        .moves
        .iter()
        .map(|legs| {
            (0..=32)
                .map(|s| if s == 0 { 0 } else { on_board(s, legs) })
                .collect()
        })
        .collect();
    let mut total = 0;
    let mut sums = vec![[0u64; 2]; shape.moves.len()];
    walk(1, shape.pieces, [0, 0], 1, &ways, &mut sums, &mut total);
    total
}

/// Every placement of `left` more pieces on squares `square..=32`: `pieces`
/// per side so far, `weight` the kinds' product, `sums[m][side]` the ways
/// of move `m` from that side's squares so far.
fn walk(
    square: u32,
    left: u32,
    pieces: [u32; 2],
    weight: u64,
    ways: &[Vec<u64>],
    sums: &mut Vec<[u64; 2]>,
    total: &mut u64,
) {
    if left == 0 {
        if pieces[0] > 0 && pieces[1] > 0 {
            for first in [0, 1] {
                let game: u64 = (0..sums.len()).map(|m| sums[m][(first + m) % 2]).product();
                *total += weight * game;
            }
        }
        return;
    }
    if square > 32 || 33 - square < left {
        return;
    }
    walk(square + 1, left, pieces, weight, ways, sums, total);
    for (side, who) in [Side::Red, Side::White].into_iter().enumerate() {
        let kinds = if who.promotes_on(square) { 1 } else { 2 };
        let mut more = pieces;
        more[side] += 1;
        for (m, move_ways) in ways.iter().enumerate() {
            sums[m][side] += move_ways[square as usize];
        }
        walk(
            square + 1,
            left - 1,
            more,
            weight * kinds,
            ways,
            sums,
            total,
        );
        for (m, move_ways) in ways.iter().enumerate() {
            sums[m][side] -= move_ways[square as usize];
        }
    }
}

/// The leg sequences of kinds `legs` from square `s` whose every landing is
/// on the board (`Any` lands on any of the 32).
fn on_board(s: u32, legs: &[Leg]) -> u64 {
    let Some((&leg, rest)) = legs.split_first() else {
        return 1;
    };
    if leg == Any {
        return 32;
    }
    let (row, column) = coordinates(s);
    let mut n = 0;
    for distance in [1, 2] {
        if leg == Jump && distance == 1 {
            continue;
        }
        for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
            let (r, c) = (row + dr * distance, column + dc * distance);
            if (0..8).contains(&r) && (0..8).contains(&c) {
                n += on_board((r * 4 + c / 2 + 1) as u32, rest);
            }
        }
    }
    n
}
