//! `lockstep solve footholds --trace`: each game's board, then the line of
//! optimal play the reference's minimax chooses (who steps from where to
//! where, 0-based as the input), and who wins after how many moves.

use lockstep_core::footholds::Case;
use lockstep_core::Model;
use lockstep_reference::{Fuel, Naive};
use std::fmt::Write;

/// The account of `case`, or `None` when the reference runs out of `fuel`
/// (one budget per game's line, as per game's answer).
pub(super) fn trace(case: &Case, fuel: u64) -> Option<String> {
    let answer = case.solve_naively(&mut Fuel::new(fuel)).ok()?.answer;
    let mut out = String::from("rows and columns 0-based, as the input; # a foothold, . none\n");
    for (index, game) in case.games.iter().enumerate() {
        let _ = writeln!(
            out,
            "game {}: A at ({},{}), B at ({},{})",
            index + 1,
            game.a.0,
            game.a.1,
            game.b.0,
            game.b.1
        );
        for row in game.cells.chunks(game.width) {
            let line: String = row.iter().map(|&f| if f { '#' } else { '.' }).collect();
            let _ = writeln!(out, "  {line}");
        }
        let line = lockstep_reference::footholds::line(game, &mut Fuel::new(fuel)).ok()?;
        for (number, &(who, from, to)) in line.iter().enumerate() {
            let _ = writeln!(
                out,
                "  move {}: {} steps from ({},{}) to ({},{}); ({},{}) crumbles",
                number + 1,
                ["A", "B"][who],
                from.0,
                from.1,
                to.0,
                to.1,
                from.0,
                from.1
            );
        }
        let stuck = ["A", "B"][line.len() % 2];
        let _ = writeln!(
            out,
            "  {stuck} cannot move (no foothold next to them, or theirs crumbled): {} wins after {} moves",
            ["B", "A"][line.len() % 2],
            line.len()
        );
    }
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&Case::write_answer(&answer));
    Some(out)
}
