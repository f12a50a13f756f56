//! Checkers perft in the harness: generator, shrinker and divergence report.
//!
//! The generator takes the positions the checkers generator builds (packed
//! pieces, seeded jump chains, kings, men one step from crowning), or the
//! standard start, and a depth of 1 to 6 (deeper from sparse positions), so
//! that the reference's enumeration keeps up. The report is perft's own way of
//! finding a bug, the "divide": the count after each first move, core against
//! reference, down the first move whose counts differ, to the position where a
//! single ply differs.

pub mod levels;
pub mod published;

use crate::puzzle::{CaseLimits, Explanation, Generated, Puzzle};
use arbitrary::Unstructured;
use lockstep_core::checkers::{perft_instance, Instance, Piece, Side};
use lockstep_core::checkers_perft::{start, Answer, Case};
use lockstep_reference::checkers::Grid;
use lockstep_reference::Fuel;

pub struct CheckersPerft;

fn generate_case(u: &mut Unstructured<'_>, limits: CaseLimits) -> arbitrary::Result<Case> {
    if u.ratio(1, 8)? {
        return Ok(start(u.int_in_range(1..=5)?));
    }
    let (case, _) = crate::puzzles::checkers::generate_logged(u, limits)?;
    let mut position = case.instances[0].clone();
    position.moves.clear();
    let pieces = position.red.len() + position.white.len();
    let deepest = match pieces {
        0..=6 => 6,
        7..=12 => 5,
        _ => 4,
    };
    let depth = u.int_in_range(1..=deepest)?;
    Ok(Case { position, depth })
}

/// One side's pieces of a case, to change.
fn pieces_of(case: &mut Case, side: Side) -> &mut Vec<Piece> {
    match side {
        Side::Red => &mut case.position.red,
        Side::White => &mut case.position.white,
    }
}

/// The instance a reference grid stands for, with `to_move` to move.
fn instance_of(grid: &Grid, to_move: Side) -> Instance {
    let (red, white) = grid.pieces();
    Instance {
        red,
        white,
        to_move,
        moves: Vec::new(),
    }
}

impl Puzzle for CheckersPerft {
    /// Enough for depth 6 from a sparse position; a busy deep one is a timeout.
    const FUEL: u64 = 3_000_000;

    type Case = Case;
    type Answer = Answer;

    fn generate(u: &mut Unstructured<'_>, limits: CaseLimits) -> Generated<Self> {
        Ok((generate_case(u, limits)?, None))
    }

    fn describe(case: &Case) -> String {
        format!(
            "{} red, {} white, depth {}",
            case.position.red.len(),
            case.position.white.len(),
            case.depth
        )
    }

    /// Perft's divide: the first move (from the reference's list) after which the
    /// counts differ, followed down until one ply differs.
    fn explain(case: &Case) -> Explanation {
        let mut report = String::new();
        let mut grid = Grid::from_pieces(&case.position.red, &case.position.white);
        let mut side = case.position.to_move;
        let mut depth = case.depth;
        let mut path = Vec::new();
        loop {
            let here = instance_of(&grid, side);
            let core = perft_instance(&here, depth);
            let reference = lockstep_reference::checkers::perft_from(
                &grid,
                side,
                depth,
                &mut Fuel::unlimited(),
            )
            .expect("unlimited fuel");
            report.push_str(&format!(
                "after {}: perft({depth}) core {core}, reference {reference}\n",
                if path.is_empty() {
                    "the start position".to_string()
                } else {
                    path.join(" ")
                }
            ));
            if depth == 0 || core == reference {
                break;
            }
            let moves = grid
                .legal_moves(side, &mut Fuel::unlimited())
                .expect("unlimited fuel");
            let next = moves.iter().find(|m| {
                let child = instance_of(&m.after, side.opponent());
                perft_instance(&child, depth - 1)
                    != lockstep_reference::checkers::perft_from(
                        &m.after,
                        side.opponent(),
                        depth - 1,
                        &mut Fuel::unlimited(),
                    )
                    .expect("unlimited fuel")
            });
            let Some(next) = next else {
                report.push_str(&format!(
                    "every one of the {} moves here counts alike below: the core's list of moves in this position differs (one ply)\n",
                    moves.len()
                ));
                break;
            };
            path.push(
                next.path
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join("-"),
            );
            grid = next.after.clone();
            side = side.opponent();
            depth -= 1;
        }
        Explanation {
            symptom: format!("perft-{}-plies-down", path.len()),
            report,
        }
    }

    /// Simpler cases: one ply less, a piece fewer (each side keeps one), a king
    /// made a man where a man may stand.
    fn shrink_candidates(case: &Case) -> Vec<Case> {
        let mut out = Vec::new();
        if case.depth > 1 {
            out.push(Case {
                depth: case.depth - 1,
                ..case.clone()
            });
        }
        for side in [Side::Red, Side::White] {
            let pieces = case.position.pieces(side).len();
            for i in 0..pieces {
                if pieces > 1 {
                    let mut fewer = case.clone();
                    pieces_of(&mut fewer, side).remove(i);
                    out.push(fewer);
                }
                let mut crowned_less = case.clone();
                let list = pieces_of(&mut crowned_less, side);
                let piece = list[i];
                if piece.king && !side.promotes_on(u32::from(piece.square)) {
                    list[i] = Piece {
                        king: false,
                        ..piece
                    };
                    out.push(crowned_less);
                }
            }
        }
        out
    }

    const RULE_BRANCHES: &'static [&'static str] = &RULE_BRANCHES;

    fn rule_branches(case: &Case) -> u64 {
        perft_branches(case)
    }

    /// Perft's divide with the core under test as a black box: down the
    /// first move after which the counts differ, to the position whose own
    /// moves the core counts wrong; that position's first-ply branches, and
    /// whether the core counted more or fewer.
    fn signature(answers: crate::puzzle::Answers<'_, Self>) -> String {
        let (case, core, reference, solver) = (
            answers.case,
            answers.core,
            answers.reference,
            answers.solver,
        );
        let (c, r) = (*core, *reference);
        let relation = if c > r {
            "core-counts-more"
        } else {
            "core-counts-fewer"
        };
        let mut at = case.clone();
        let naive = |case: &Case| {
            lockstep_reference::checkers::perft_from(
                &Grid::from_pieces(&case.position.red, &case.position.white),
                case.position.to_move,
                case.depth,
                &mut Fuel::unlimited(),
            )
            .expect("unlimited fuel")
        };
        while at.depth > 1 {
            let grid = Grid::from_pieces(&at.position.red, &at.position.white);
            let moves = grid
                .legal_moves(at.position.to_move, &mut Fuel::unlimited())
                .expect("unlimited fuel");
            let child = moves.iter().map(|m| Case {
                position: instance_of(&m.after, at.position.to_move.opponent()),
                depth: at.depth - 1,
            });
            let Some(next) = child.into_iter().find(|child| {
                crate::puzzle::run_core::<Self>(child, solver).answer() != Some(&naive(child))
            }) else {
                break;
            };
            at = next;
        }
        // The most telling shape of the position whose moves the core counts
        // wrong: no move at all, a multi-jump, a mandatory jump, a king.
        let bits = perft_branches(&Case { depth: 1, ..at });
        let shape = [4usize, 2, 1, 3]
            .into_iter()
            .find(|&i| bits >> i & 1 == 1)
            .map_or("simple-steps-only".to_string(), |i| {
                crate::signature::folded(RULE_BRANCHES[i])
            });
        format!("{relation}:{shape}")
    }

    /// `lockstep verify`'s levels (the rule page's "Sizes").
    const LEVELS: crate::enumerate::Levels<Self::Case> = levels::LEVELS;
}

/// The rule branches `--stats` counts: what the first ply of the position
/// holds (its rule page's rule index names each in its rule's row).
pub const RULE_BRANCHES: [&str; 6] = [
    "the standard start",
    "a jump is mandatory at the first ply",
    "a multi-jump at the first ply",
    "a king among the pieces",
    "no move at the first ply (perft 0)",
    "two jump paths to one position at the first ply",
];

fn perft_branches(case: &Case) -> u64 {
    let grid = Grid::from_pieces(&case.position.red, &case.position.white);
    let moves = grid
        .legal_moves(case.position.to_move, &mut Fuel::unlimited())
        .unwrap_or_default();
    let jump =
        |path: &[u32]| path.len() >= 2 && ((path[0] - 1) / 4).abs_diff((path[1] - 1) / 4) == 2;
    let mut bits = u64::from(levels::is_start(case));
    bits |= u64::from(moves.iter().any(|m| jump(&m.path))) << 1;
    bits |= u64::from(moves.iter().any(|m| m.path.len() >= 3)) << 2;
    let king = |p: &Piece| p.king;
    bits |=
        u64::from(case.position.red.iter().any(king) || case.position.white.iter().any(king)) << 3;
    bits |= u64::from(moves.is_empty()) << 4;
    // Every path is a move of its own (a king's circuit, one way round and
    // the other): two paths whose positions after are the same.
    let twice = moves
        .iter()
        .enumerate()
        .any(|(i, a)| moves[..i].iter().any(|b| b.after == a.after));
    bits |= u64::from(twice) << 5;
    bits
}
