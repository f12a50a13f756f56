//! Checker's Check in the harness: generator, shrinker and divergence report.
//!
//! The generator builds legal positions (often few pieces packed into four rows, so
//! that jumps, multi-jumps and crowning come up), then plays mostly legal moves drawn
//! from the reference's move list (harness code may use the reference; the core
//! never does), and in about a third of the instances replaces one move with a
//! [`Mutation`]: the near-misses a validator is most likely to get wrong. About
//! half of all cases end with every instance valid.

pub mod bench;
pub mod explore;
pub mod levels;
mod trace;

use crate::puzzle::{CaseLimits, Explanation, Generated, Puzzle};
use crate::shrink::fewer_parts;
use arbitrary::Unstructured;
use lockstep_core::checkers::{
    self as model, Answer, Board, Case, Instance, Move, Piece, Ruling, Side, MAX_PIECES,
};
use lockstep_reference::checkers::{self as reference, cell_to_square, square_to_cell, Grid};
use lockstep_reference::{Fuel, OutOfFuel};

pub struct Checkers;

mod boundary;
mod branches;
mod built;
mod count;
mod generate;
mod mutation;
pub(crate) mod placed;
mod shapes;

pub use boundary::*;
pub use generate::*;
pub use mutation::*;

/// Simpler variants of an instance, most promising first.
fn shrink_instance(instance: &Instance) -> Vec<Instance> {
    let mut out = Vec::new();
    if instance.moves.len() > 1 {
        let mut shorter = instance.clone();
        shorter.moves.pop();
        out.push(shorter);
        // Play the first move (when it is legal) into the position: the pieces it
        // captures go, and the rest of the moves start from there.
        let grid = Grid::of(instance);
        if let Some(m) = unlimited_moves(&grid, instance.to_move)
            .into_iter()
            .find(|m| m.path == instance.moves[0].0)
        {
            let (red, white) = m.after.pieces();
            if !red.is_empty() && !white.is_empty() {
                out.push(Instance {
                    red,
                    white,
                    to_move: instance.to_move.opponent(),
                    moves: instance.moves[1..].to_vec(),
                });
            }
        }
    }
    // Drop a piece: first those on no square any move names.
    let on_path = |p: &Piece| {
        instance
            .moves
            .iter()
            .any(|m| m.0.contains(&u32::from(p.square)))
    };
    for wanted in [false, true] {
        for side in [Side::Red, Side::White] {
            let pieces = instance.pieces(side);
            if pieces.len() <= 1 {
                continue;
            }
            for (index, piece) in pieces.iter().enumerate() {
                if on_path(piece) != wanted {
                    continue;
                }
                let mut smaller = instance.clone();
                match side {
                    Side::Red => smaller.red.remove(index),
                    Side::White => smaller.white.remove(index),
                };
                out.push(smaller);
            }
        }
    }
    for side in [Side::Red, Side::White] {
        for (index, piece) in instance.pieces(side).iter().enumerate() {
            if piece.king && !side.promotes_on(u32::from(piece.square)) {
                let mut plainer = instance.clone();
                match side {
                    Side::Red => plainer.red[index].king = false,
                    Side::White => plainer.white[index].king = false,
                }
                out.push(plainer);
            }
        }
    }
    out
}

fn pieces_of(board: &Board) -> (Vec<Piece>, Vec<Piece>) {
    let (mut red, mut white) = (Vec::new(), Vec::new());
    for square in 1..=32u32 {
        if let Some((side, king)) = board.at(square) {
            let piece = Piece {
                square: square as u8,
                king,
            };
            match side {
                Side::Red => red.push(piece),
                Side::White => white.push(piece),
            }
        }
    }
    (red, white)
}

impl Puzzle for Checkers {
    /// Generated cases enumerate a few hundred moves at most.
    const FUEL: u64 = 200_000;

    type Case = Case;
    type Answer = Answer;

    /// Games played forward through the reference, whose result comes along.
    fn generate(u: &mut Unstructured<'_>, limits: CaseLimits) -> Generated<Self> {
        let (case, _, generated) = generate_played(u, limits)?;
        Ok((case, generated))
    }

    /// docs/guide/src/rules/checkers.md: 1..=12 pieces a side on distinct squares 1..=32,
    /// no man on its own promotion row, at least one move, every move of 2..=13
    /// squares, each in 1..=32.
    fn within_original(case: &Case) -> bool {
        case.instances.iter().all(|instance| {
            let mut seen = [false; 33];
            let pieces_ok = [Side::Red, Side::White].iter().all(|&side| {
                let pieces = instance.pieces(side);
                (1..=12).contains(&pieces.len())
                    && pieces.iter().all(|p| {
                        let s = usize::from(p.square);
                        if !(1..=32).contains(&s) || seen[s] {
                            return false;
                        }
                        seen[s] = true;
                        let promotion_row = if side == Side::Red { 7 } else { 0 };
                        p.king || (s - 1) / 4 != promotion_row
                    })
            });
            pieces_ok
                && !instance.moves.is_empty()
                && instance.moves.iter().all(|m| {
                    (2..=13).contains(&m.0.len()) && m.0.iter().all(|s| (1..=32).contains(s))
                })
        })
    }

    const RULE_BRANCHES: &'static [&'static str] = &branches::RULE_BRANCHES;

    fn rule_branches(case: &Case) -> u64 {
        branches::checkers_branches(case)
    }

    fn signature(answers: crate::puzzle::Answers<'_, Self>) -> String {
        let (case, core, reference) = (answers.case, answers.core, answers.reference);
        branches::checkers_signature(case, core, reference)
    }

    fn describe(case: &Case) -> String {
        let moves: usize = case.instances.iter().map(|i| i.moves.len()).sum();
        let pieces: usize = case
            .instances
            .iter()
            .map(|i| i.red.len() + i.white.len())
            .sum();
        format!(
            "{} instance{}, {moves} moves, {pieces} pieces",
            case.instances.len(),
            if case.instances.len() == 1 { "" } else { "s" }
        )
    }

    /// Finds the first instance where the two sides part, and shows the position
    /// before the first move they treat differently, that move, both verdicts and the
    /// reference's list of legal moves there.
    fn explain(case: &Case) -> Explanation {
        for (number, instance) in case.instances.iter().enumerate() {
            let core = model::trace_instance(instance);
            let naive = reference::trace_instance(instance);
            if core == naive {
                continue;
            }
            let first = crate::puzzle::first_unequal(&core.boards, &naive.boards);
            let before = if first == 0 {
                Board::of(instance)
            } else {
                naive.boards[first - 1]
            };
            let side = if first.is_multiple_of(2) {
                instance.to_move
            } else {
                instance.to_move.opponent()
            };
            let (red, white) = pieces_of(&before);
            let legal: Vec<String> = unlimited_moves(&Grid::from_pieces(&red, &white), side)
                .iter()
                .map(|m| Move(m.path.clone()).to_string())
                .collect();
            let written = instance
                .moves
                .get(first)
                .map_or("(none)".to_string(), Move::to_string);
            let show = |trace: &model::InstanceTrace| match trace.boards.get(first) {
                Some(board) if first < trace.boards.len() => {
                    format!("applied it ({}), giving\n{board}", trace.verdict)
                }
                _ => format!("{}", trace.verdict),
            };
            let mut report = format!(
                "instance {}: first difference at move {} ({written}), {} to move, position before it \
                 (r/w men, R/W kings):\n{before}",
                number + 1,
                first + 1,
                side.name()
            );
            report.push_str(&format!("  core:      {}\n", show(&core)));
            report.push_str(&format!("  reference: {}\n", show(&naive)));
            report.push_str(&format!(
                "  reference's legal moves there: {}\n",
                if legal.is_empty() {
                    "none".to_string()
                } else {
                    legal.join(" ")
                }
            ));
            let core_took = first < core.boards.len();
            let naive_took = first < naive.boards.len();
            let symptom = match (core_took, naive_took) {
                (true, false) => format!("instance-{}-move-{}-core-accepts", number + 1, first + 1),
                (false, true) => format!("instance-{}-move-{}-core-rejects", number + 1, first + 1),
                (true, true) => format!(
                    "instance-{}-move-{}-different-result",
                    number + 1,
                    first + 1
                ),
                (false, false) => format!("instance-{}-verdict", number + 1),
            };
            return Explanation { symptom, report };
        }
        Explanation {
            symptom: "same-traces".to_string(),
            report: "both sides give the same verdict and positions on every instance\n"
                .to_string(),
        }
    }

    /// Simpler variants: one instance alone, fewer instances, then simpler instances.
    fn shrink_candidates(case: &Case) -> Vec<Case> {
        let mut out: Vec<Case> = fewer_parts(&case.instances)
            .into_iter()
            .map(|instances| Case { instances })
            .collect();
        for (index, instance) in case.instances.iter().enumerate() {
            for simpler in shrink_instance(instance) {
                let mut candidate = case.clone();
                candidate.instances[index] = simpler;
                out.push(candidate);
            }
        }
        out
    }

    /// `lockstep verify`'s levels (the rule page's "Sizes").
    const LEVELS: crate::enumerate::Levels<Self::Case> = levels::LEVELS;
}

impl crate::puzzle::Traceable for Checkers {
    fn trace(case: &Self::Case, fuel: &mut Fuel) -> Option<String> {
        trace::trace(case, fuel)
    }
}

impl crate::puzzle::Verifiable for Checkers {
    /// Squares are 1..=32 in the statement; only fuzz's wide limits write
    /// others (docs/guide/src/rules/checkers.md, "Sizes").
    const CHECKED_ELSEWHERE: &'static [(&'static str, &'static str)] = &[(
        "invalid: a square off 1..=32",
        "beyond the statement's limits: `fuzz` (wide limits) and the corpus",
    )];

    /// Each instance alone: instances are ruled each on its own.
    fn parts(case: &Case) -> Vec<Case> {
        case.instances
            .iter()
            .map(|instance| Case {
                instances: vec![instance.clone()],
            })
            .collect()
    }

    fn part_count(case: &Case) -> usize {
        case.instances.len()
    }
}

impl crate::puzzle::Counting for Checkers {
    /// The core's answer and the branches of its own run: the positions it
    /// shows after every applied move (`branches::solve_counting`).
    fn solve_counting(
        case: &Case,
    ) -> Option<(
        lockstep_core::Run<Vec<lockstep_core::checkers::Ruling>>,
        u64,
    )> {
        Some(branches::solve_counting(case))
    }
}

impl crate::puzzle::Joinable for Checkers {
    /// The instances of every case, in order, in one input.
    fn join(cases: &[Self::Case]) -> Option<Self::Case> {
        Some(Self::Case {
            instances: cases
                .iter()
                .flat_map(|c| c.instances.iter().cloned())
                .collect(),
        })
    }
}

/// The verdicts of a case, as the tests count them.
pub fn all_valid(answer: &Answer) -> bool {
    answer.iter().all(|v| *v == Ruling::AllValid)
}

/// Whole games from the start position, every move legal: random play (seeded)
/// until the side to move has no move or `plies` moves are made, one instance a
/// game. The generator's cases are short (two or three moves an instance, a third
/// of them broken early); these measure validation per move over long move lists.
pub fn whole_games(seed: u64, games: usize, plies: usize) -> Vec<Case> {
    let mut random = lockstep_search::seeds::SplitMix64::new(seed);
    (0..games)
        .map(|_| {
            let start = reference::start_grid();
            let (red, white) = start.pieces();
            let (mut grid, mut side, mut moves) = (start, Side::Red, Vec::new());
            while moves.len() < plies {
                let legal = unlimited_moves(&grid, side);
                if legal.is_empty() {
                    break;
                }
                let chosen = &legal[(random.next_u64() % legal.len() as u64) as usize];
                moves.push(Move(chosen.path.clone()));
                grid = chosen.after.clone();
                side = side.opponent();
            }
            Case {
                instances: vec![Instance {
                    red,
                    white,
                    to_move: Side::Red,
                    moves,
                }],
            }
        })
        .collect()
}
