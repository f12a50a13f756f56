//! `lockstep solve robots --trace`: every move of every game as the
//! reference plays it, in the rule page's words (your move, where you stand
//! after the robots' step, the robots left, the cells of debris), with the
//! board drawn at the game's start and after its last move.

use lockstep_core::robots::{Case, MoveKind, START};
use lockstep_core::Model;
use lockstep_reference::{Fuel, Naive};
use std::fmt::Write;

/// The account of `case`, or `None` when the reference runs out of `fuel`.
pub(super) fn trace(case: &Case, fuel: u64) -> Option<String> {
    let answer = case.solve_naively(&mut Fuel::new(fuel)).ok()?.answer;
    let steps = lockstep_reference::robots::trace(case, usize::MAX).steps;
    let mut out = String::new();
    // The steps come game by game, in order: one pass over them.
    let mut steps = steps.iter().peekable();
    for (index, game) in case.games.iter().enumerate() {
        let _ = writeln!(
            out,
            "game {}: {} robots, {} teleports; you start at ({},{})",
            index + 1,
            game.robots.len(),
            game.teleports.len(),
            START.0,
            START.1
        );
        // The board (you, the robots, the debris) at the start and after
        // the game's last move: the reference's own, one game at a time.
        let alone = Case {
            games: vec![game.clone()],
        };
        let board = |moves| lockstep_reference::robots::trace(&alone, moves).board;
        if let Some(start) = board(0) {
            let _ = write!(
                out,
                "  the board at the start (@ you, R a robot, # debris):\n{start}"
            );
        }
        while let Some(step) = steps.next_if(|s| usize::from(s.game) == index) {
            let (r, c) = step.to;
            let what = match step.kind {
                MoveKind::Walk(dr, dc) => format!("walk by ({dr},{dc}) to ({r},{c})"),
                MoveKind::Stay => format!("stay at ({r},{c})"),
                MoveKind::Teleport => format!("teleport to ({r},{c})"),
                MoveKind::StayAndLose => {
                    format!("no walk, stay or teleport is safe: stay at ({r},{c}) and lose")
                }
            };
            let _ = writeln!(
                out,
                "  move {}: {what}; {} robots left, {} cells of debris",
                step.number, step.robots_left, step.debris
            );
        }
        if let Some(end) = board(usize::MAX) {
            let _ = write!(out, "  the board after the last move:\n{end}");
        }
    }
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&Case::write_answer(&answer));
    Some(out)
}
