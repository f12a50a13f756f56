//! `lockstep solve footholds --trace`: each game's board, then the line of
//! optimal play the reference's minimax chooses (who steps from where to
//! where, 0-based as the input), the board after each move (the footholds
//! left and where A and B stand: all the next move reads), and who wins
//! after how many moves.

use lockstep_core::footholds::{Case, Game, Pos};
use lockstep_core::Model;
use lockstep_reference::Fuel;
use lockstep_text::counted;
use std::fmt::Write;

/// The board with the players on it, one line a row, indented.
fn board(cells: &[bool], width: usize, a: Pos, b: Pos) -> String {
    let mut out = String::new();
    for (r, row) in cells.chunks(width).enumerate() {
        let line: String = row
            .iter()
            .enumerate()
            .map(|(c, &foothold)| {
                let here = (r as u8, c as u8);
                match (here == a, here == b, foothold) {
                    (true, true, _) => 'X',
                    (true, false, _) => 'A',
                    (false, true, _) => 'B',
                    (false, false, true) => '#',
                    (false, false, false) => '.',
                }
            })
            .collect();
        let _ = writeln!(out, "    {line}");
    }
    out
}

/// One game's account: its board, its line of play with the board after
/// each move, and who wins; the line's length, the game's answer.
fn game_lines(out: &mut String, index: usize, game: &Game, fuel: &mut Fuel) -> Option<u32> {
    let (mut a, mut b) = (game.a, game.b);
    let _ = writeln!(
        out,
        "game {}: a {}x{} board, A at ({},{}), B at ({},{})",
        index + 1,
        game.height,
        game.width,
        a.0,
        a.1,
        b.0,
        b.1
    );
    let mut cells = game.cells.clone();
    out.push_str(&board(&cells, game.width, a, b));
    let line = lockstep_reference::footholds::line(game, fuel).ok()?;
    for (number, &(who, from, to)) in line.iter().enumerate() {
        cells[usize::from(from.0) * game.width + usize::from(from.1)] = false;
        match who {
            0 => a = to,
            _ => b = to,
        }
        let _ = writeln!(
            out,
            "  move {}: {} steps from ({},{}) to ({},{}); ({},{}) crumbles; {} to move:",
            number + 1,
            ["A", "B"][who],
            from.0,
            from.1,
            to.0,
            to.1,
            from.0,
            from.1,
            ["B", "A"][who],
        );
        out.push_str(&board(&cells, game.width, a, b));
    }
    let stuck = ["A", "B"][line.len() % 2];
    let _ = writeln!(
        out,
        "  {stuck} cannot move (no foothold next to them, or theirs crumbled): {} wins after {}",
        ["B", "A"][line.len() % 2],
        counted(line.len() as u64, "move")
    );
    Some(line.len() as u32)
}

/// The account of `case`, or `None` when the reference runs out of `fuel`
/// (one budget for the whole case, as the reference's solve).
pub(super) fn trace(case: &Case, fuel: &mut Fuel) -> Option<String> {
    let mut out = String::from(
        "rows and columns 0-based, as the input; # a foothold, . none, A and B the players (X both) on theirs\n",
    );
    let mut answer = Vec::new();
    for (index, game) in case.games.iter().enumerate() {
        answer.push(game_lines(&mut out, index, game, fuel)?);
    }
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&Case::write_answer(&answer));
    Some(out)
}
