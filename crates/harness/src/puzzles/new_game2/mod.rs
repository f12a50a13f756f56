//! New Game 2 in the harness: generator, shrinker and divergence report.
//!
//! The generator leans toward the cases where stacking rules bite: small boards,
//! many red and blue cells, pieces packed together or along the edges (where the
//! off-board bounce happens). Random boards of both kinds still appear, which gives
//! long games and games that never end (the path through the core's repeat check).

pub mod levels;
mod trace;

use crate::puzzle::{CaseLimits, Explanation, Generated, Puzzle};
use arbitrary::Unstructured;
use lockstep_core::new_game2::{self as model, Answer, Case, Colour, Dir, End, Piece, Trace};
use lockstep_reference::{Fuel, Naive};

pub struct NewGame2;

mod late;
pub use late::{LateGame, LATE_GAMES};

/// How the generator places the pieces.
#[derive(Clone, Copy)]
enum Placement {
    Anywhere,
    /// Within a small square around one cell: stacks form within a few moves.
    Cluster,
    /// On the outer ring: bounces off the edge.
    Edges,
}

fn describe_end(end: &End) -> String {
    match end {
        End::Ended { turn } => format!("the game ended on turn {turn}"),
        End::Repeated { turn, earlier } => format!(
            "stopped: the state after turn {turn} repeats the one after turn {earlier} (answer -1)"
        ),
        End::TurnLimit => "stopped: the turn limit passed (answer -1)".to_string(),
        End::StepLimit => "stopped at the step limit".to_string(),
    }
}

/// The rule branches `--stats` counts (its rule page's rule index names each in its
/// rule's row): the five ways a piece moves, how a game ends, and where.
pub const RULE_BRANCHES: [&str; 11] = [
    "onto white",
    "onto red: the group reversed",
    "blue or edge: turned, onto white",
    "blue or edge: turned, onto red",
    "blue or edge both ways: turned, stayed",
    "a group of two or more moved",
    "ended: a stack of four",
    "ended mid-turn (not the last piece)",
    "ended on turn 1",
    "never ends (-1)",
    "ended on the last turn (1000)",
];

/// The case without `k` rows `r..r + k` and `k` columns `c..c + k`, for
/// every such band where no piece stands, the board `k` smaller.
fn without_lines(case: &Case, k: u8) -> Vec<Case> {
    let mut out = Vec::new();
    if case.n < model::MIN_N + usize::from(k) {
        return out;
    }
    let n = case.n as u8;
    for r in 1..=n + 1 - k {
        for c in 1..=n + 1 - k {
            let gone = |v: u8, at: u8| (at..at + k).contains(&v);
            if case.pieces.iter().any(|p| gone(p.row, r) || gone(p.col, c)) {
                continue;
            }
            let board = (1..=n)
                .filter(|&row| !gone(row, r))
                .flat_map(|row| {
                    (1..=n)
                        .filter(move |&col| !gone(col, c))
                        .map(move |col| (row, col))
                })
                .map(|(row, col)| case.colour(row, col))
                .collect();
            let less = |v: u8, at: u8| v - k * u8::from(v >= at + k);
            let pieces = case
                .pieces
                .iter()
                .map(|p| Piece {
                    row: less(p.row, r),
                    col: less(p.col, c),
                    dir: p.dir,
                })
                .collect();
            out.push(Case {
                n: case.n - usize::from(k),
                board,
                pieces,
            });
        }
    }
    out
}

/// Each piece pulled one cell up or left onto a free cell: frees rows and
/// columns for the board shrinks.
fn pieces_pulled(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    for (index, piece) in case.pieces.iter().enumerate() {
        for (row, col) in [(piece.row - 1, piece.col), (piece.row, piece.col - 1)] {
            let free = !case.pieces.iter().any(|p| (p.row, p.col) == (row, col));
            if row >= 1 && col >= 1 && free {
                let mut moved = case.clone();
                moved.pieces[index].row = row;
                moved.pieces[index].col = col;
                out.push(moved);
            }
        }
    }
    out
}

/// Each cell made plainer: red and blue to white, blue to red.
fn plainer_cells(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    for (index, colour) in case.board.iter().enumerate() {
        let plainer: &[Colour] = match colour {
            Colour::White => &[],
            Colour::Red => &[Colour::White],
            Colour::Blue => &[Colour::White, Colour::Red],
        };
        for &replacement in plainer {
            let mut simpler = case.clone();
            simpler.board[index] = replacement;
            out.push(simpler);
        }
    }
    out
}

impl Puzzle for NewGame2 {
    /// docs/guide/src/rules/new_game2.md: 4 <= N <= 12, 4 <= K <= 10, an N x N board,
    /// pieces on distinct cells of it.
    fn within_original(case: &Case) -> bool {
        let n = case.n;
        let mut cells: Vec<(u8, u8)> = case.pieces.iter().map(|p| (p.row, p.col)).collect();
        cells.sort_unstable();
        cells.dedup();
        (4..=12).contains(&n)
            && (4..=10).contains(&case.pieces.len())
            && case.board.len() == n * n
            && cells.len() == case.pieces.len()
            && case.pieces.iter().all(|p| {
                (1..=n).contains(&usize::from(p.row)) && (1..=n).contains(&usize::from(p.col))
            })
    }

    /// The reference makes at most 1000 turns x 10 moves; this is a safety net.
    const FUEL: u64 = 20_000;

    type Case = Case;
    type Answer = Answer;

    /// A board of N x N coloured cells and K pieces; one case in ten a game
    /// that goes to the turn limit.
    fn generate(u: &mut Unstructured<'_>, _limits: CaseLimits) -> Generated<Self> {
        // One case in ten is a game that ends at the turn limit (late.rs).
        if u.ratio(1, 10)? {
            return Ok((late::late_game(u)?, None));
        }
        let n = if u.ratio(2, 3)? {
            u.int_in_range(model::MIN_N..=6)?
        } else {
            u.int_in_range(model::MIN_N..=model::MAX_N)?
        };
        // Colour weights out of 8: from all white to mostly red or mostly blue.
        let red = u.int_in_range(0..=4u8)?;
        let blue = u.int_in_range(0..=4u8)?;
        let mut board = Vec::with_capacity(n * n);
        for _ in 0..n * n {
            let x = u.int_in_range(0..=7u8)?;
            board.push(if x < red {
                Colour::Red
            } else if x < red + blue {
                Colour::Blue
            } else {
                Colour::White
            });
        }

        let k = u.int_in_range(model::MIN_K..=model::MAX_K)?;
        let placement = *u.choose(&[Placement::Anywhere, Placement::Cluster, Placement::Edges])?;
        let centre = (u.int_in_range(0..=n - 1)?, u.int_in_range(0..=n - 1)?);
        let radius = u.int_in_range(1..=2usize)?;
        let mut taken = vec![false; n * n];
        let mut pieces = Vec::with_capacity(k);
        for _ in 0..k {
            let (row, col) = match placement {
                Placement::Anywhere => (u.int_in_range(0..=n - 1)?, u.int_in_range(0..=n - 1)?),
                Placement::Cluster => {
                    let near = |c: usize, d: usize| (c + d).saturating_sub(radius).min(n - 1);
                    (
                        near(centre.0, u.int_in_range(0..=2 * radius)?),
                        near(centre.1, u.int_in_range(0..=2 * radius)?),
                    )
                }
                Placement::Edges => {
                    let along = u.int_in_range(0..=n - 1)?;
                    match u.int_in_range(0..=3u8)? {
                        0 => (0, along),
                        1 => (n - 1, along),
                        2 => (along, 0),
                        _ => (along, n - 1),
                    }
                }
            };
            // A taken cell moves the piece to the next free one, so every draw is valid.
            let mut cell = row * n + col;
            while taken[cell] {
                cell = (cell + 1) % (n * n);
            }
            taken[cell] = true;
            pieces.push(Piece {
                row: (cell / n + 1) as u8,
                col: (cell % n + 1) as u8,
                dir: *u.choose(&Dir::ALL)?,
            });
        }
        Ok((Case { n, board, pieces }, None))
    }

    fn describe(case: &Case) -> String {
        format!("{0}x{0} board, {1} pieces", case.n, case.pieces.len())
    }

    /// Finds the first step where the two traces differ and shows both boards there.
    fn explain(case: &Case) -> Explanation {
        let core = model::trace(case, usize::MAX);
        let reference = lockstep_reference::new_game2::trace(case, usize::MAX);
        let first = crate::puzzle::first_unequal(&core.steps, &reference.steps);
        let show = |trace: &Trace| match trace.steps.get(first) {
            Some(step) => step.to_string(),
            None => format!("no step {}: {}", first + 1, describe_end(&trace.end)),
        };
        let mut report = String::new();
        let same_steps = core.steps == reference.steps;
        if same_steps {
            report.push_str(&format!(
                "both traces have the same {} steps; core: {}; reference: {}\n",
                core.steps.len(),
                describe_end(&core.end),
                describe_end(&reference.end)
            ));
        } else {
            report.push_str(&format!("first divergence at step {}:\n", first + 1));
            report.push_str(&format!("  core:      {}\n", show(&core)));
            report.push_str(&format!("  reference: {}\n", show(&reference)));
            let before = model::trace(case, first).state;
            report.push_str(&format!(
                "state before it (stacks bottom first, > < ^ v directions):\n{before}"
            ));
            let reference_before = lockstep_reference::new_game2::trace(case, first).state;
            if reference_before != before {
                report.push_str(&format!("reference's state before it:\n{reference_before}"));
            }
            report.push_str(&format!(
                "core after it:\n{}reference after it:\n{}",
                model::trace(case, first + 1).state,
                lockstep_reference::new_game2::trace(case, first + 1).state
            ));
        }
        let symptom = match reference.steps.get(first) {
            Some(step) if !same_steps => format!(
                "turn-{}-piece-{}-{}",
                step.turn,
                step.piece,
                step.rule.slug()
            ),
            _ if !same_steps => format!("core-extra-step-{}", first + 1),
            _ => "same-steps-different-end".to_string(),
        };
        Explanation { symptom, report }
    }

    /// Simpler variants: fewer pieces, then a smaller board, then plainer cells.
    fn shrink_candidates(case: &Case) -> Vec<Case> {
        let mut out = Vec::new();
        if case.pieces.len() > model::MIN_K {
            for drop in 0..case.pieces.len() {
                let mut smaller = case.clone();
                smaller.pieces.remove(drop);
                out.push(smaller);
            }
        }
        // One row and column at a time, then two rows and two columns at
        // once: a failure that hangs on the board's parity shrinks too,
        // which one row and column at a time never can.
        out.extend(without_lines(case, 1));
        out.extend(without_lines(case, 2));
        out.extend(pieces_pulled(case));
        out.extend(plainer_cells(case));
        out
    }

    const RULE_BRANCHES: &'static [&'static str] = &RULE_BRANCHES;

    /// Which [`RULE_BRANCHES`] the core's run of a case goes through, from its
    /// trace (the steps and how it stopped).
    fn rule_branches(case: &Case) -> u64 {
        let trace = model::trace(case, usize::MAX);
        let mut bits = 0u64;
        for step in &trace.steps {
            bits |= 1
                << match step.rule {
                    model::Rule::White => 0,
                    model::Rule::Red => 1,
                    model::Rule::TurnedWhite => 2,
                    model::Rule::TurnedRed => 3,
                    model::Rule::TurnedStayed => 4,
                };
            // The stack at the destination holds the group on top: more than the
            // piece itself above where the mover now is means it carried others.
            let height = step.stack.iter().take_while(|&&p| p != 0).count();
            let at = step.stack.iter().position(|&p| p == step.piece);
            let group = match step.rule {
                model::Rule::Red | model::Rule::TurnedRed => at.map_or(0, |i| i + 1),
                _ => at.map_or(0, |i| height - i),
            };
            if group >= 2 && step.rule != model::Rule::TurnedStayed {
                bits |= 1 << 5;
            }
        }
        match trace.end {
            End::Ended { turn } => {
                bits |= 1 << 6;
                let last = trace.steps.last().map_or(0, |s| s.piece);
                if usize::from(last) < case.pieces.len() {
                    bits |= 1 << 7;
                }
                if turn == 1 {
                    bits |= 1 << 8;
                }
                if turn == model::TURN_LIMIT {
                    bits |= 1 << 10;
                }
            }
            End::Repeated { .. } | End::TurnLimit => bits |= 1 << 9,
            End::StepLimit => {}
        }
        bits
    }

    /// How the two endings relate, and the rules the reference's pieces move
    /// by up to where the two answers part (the earlier of the two endings):
    /// the move whose rule the core got wrong is among them, and in a shrunk
    /// case they are few. White, the plain move, is left out: every game has
    /// it.
    fn signature(answers: crate::puzzle::Answers<'_, Self>) -> String {
        let (case, core, reference) = (answers.case, answers.core, answers.reference);
        let (relation, horizon) = match (core, reference) {
            (Answer::EndsOnTurn(c), Answer::EndsOnTurn(r)) if c < r => ("core-ends-earlier", *c),
            (Answer::EndsOnTurn(c), Answer::EndsOnTurn(r)) if c > r => ("core-ends-later", *r),
            (Answer::EndsOnTurn(t), _) => ("reference-never-ends", *t),
            (_, Answer::EndsOnTurn(t)) => ("core-never-ends", *t),
            _ => return "same-answer-different-moves".to_string(),
        };
        let trace = lockstep_reference::new_game2::trace(case, usize::MAX);
        let mut rules: Vec<String> = trace
            .steps
            .iter()
            .filter(|s| s.turn <= horizon && s.rule != model::Rule::White)
            .map(|s| crate::signature::folded(&format!("{:?}", s.rule)))
            .collect();
        rules.sort();
        rules.dedup();
        let rules = if rules.is_empty() {
            "white-moves-only".to_string()
        } else {
            rules.join("+")
        };
        format!("{relation}:{rules}")
    }

    /// `lockstep verify`'s levels (the rule page's "Sizes").
    const LEVELS: crate::enumerate::Levels<Self::Case> = levels::LEVELS;
}

impl crate::puzzle::Traceable for NewGame2 {
    fn trace(case: &Self::Case, fuel: &mut Fuel) -> Option<String> {
        trace::trace(case, fuel)
    }
}

impl crate::shrink::Sideways for NewGame2 {
    /// The turn the reference's game ends on; one past the limit when it
    /// does not end within it (the longest game there is).
    fn game_length(case: &Case) -> Option<u64> {
        match case
            .solve_naively(&mut lockstep_reference::Fuel::new(Self::FUEL))
            .ok()?
            .answer
        {
            model::Answer::EndsOnTurn(turn) => Some(u64::from(turn)),
            model::Answer::NotWithinLimit => Some(u64::from(model::TURN_LIMIT) + 1),
        }
    }

    /// Each piece turned to each other direction: the same board and
    /// pieces, another game.
    fn sideways(case: &Case) -> Vec<Case> {
        let mut out = Vec::new();
        for index in 0..case.pieces.len() {
            for dir in Dir::ALL {
                if dir != case.pieces[index].dir {
                    let mut turned = case.clone();
                    turned.pieces[index].dir = dir;
                    out.push(turned);
                }
            }
        }
        out
    }
}
