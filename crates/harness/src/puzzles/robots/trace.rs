//! `lockstep solve robots --trace`: every move of every game as the
//! reference plays it, in the rule page's words (your move, where you stand
//! after the robots' step, the robots left and their cells, the cells of
//! debris: everything the next move is chosen from but the teleports
//! already used, which the teleport lines show), with the board drawn at
//! the game's start and after its last move.

use lockstep_core::robots::{Board, Case, Cell, MoveKind, Step, START};
use lockstep_core::Model;
use lockstep_reference::Fuel;
use lockstep_text::counted;
use std::fmt::Write;

/// Cells as the output writes them, `(r,c)`, or `none`.
fn cells(cells: &[Cell]) -> String {
    match cells.is_empty() {
        true => "none".to_string(),
        false => {
            let words: Vec<String> = cells.iter().map(|(r, c)| format!("({r},{c})")).collect();
            words.join(" ")
        }
    }
}

/// One move's lines: what you did, then the robots and the debris after
/// the robots' step.
fn move_lines(step: &Step, after: &Board) -> String {
    let (r, c) = step.to;
    let what = match step.kind {
        MoveKind::Walk(dr, dc) => format!("walk by ({dr},{dc}) to ({r},{c})"),
        MoveKind::Stay => format!("stay at ({r},{c})"),
        MoveKind::Teleport => format!("teleport to ({r},{c})"),
        MoveKind::StayAndLose => {
            format!("no walk, stay or teleport is safe: stay at ({r},{c}) and lose")
        }
    };
    format!(
        "  move {}: {what}; {} left, {} of debris\n    robots: {}; debris: {}\n",
        step.number,
        counted(step.robots_left, "robot"),
        counted(step.debris, "cell"),
        cells(&after.robots),
        cells(&after.debris)
    )
}

/// The account of `case`, or `None` when the reference runs out of `fuel`.
pub(super) fn trace(case: &Case, fuel: &mut Fuel) -> Option<String> {
    let games = lockstep_reference::robots::account(case, fuel).ok()?;
    let mut out = String::from("rows and columns 1-based, as the input\n");
    let mut answer = Vec::new();
    for (index, (game, (start, moves, result))) in case.games.iter().zip(games).enumerate() {
        let _ = writeln!(
            out,
            "game {}: {}, {}; you start at ({},{})",
            index + 1,
            counted(game.robots.len() as u64, "robot"),
            counted(game.teleports.len() as u64, "teleport"),
            START.0,
            START.1
        );
        let _ = write!(
            out,
            "  the board at the start (@ you, R a robot, # debris):\n{start}"
        );
        let _ = writeln!(out, "    robots: {}", cells(&start.robots));
        for (step, after) in &moves {
            out.push_str(&move_lines(step, after));
        }
        if let Some((_, end)) = moves.last() {
            let _ = write!(out, "  the board after the last move:\n{end}");
        }
        answer.push(result);
    }
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&Case::write_answer(&answer));
    Some(out)
}
