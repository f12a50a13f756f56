//! `lockstep solve new-game2 --trace`: the board and every piece's cell and
//! direction at the start, then every piece's move of every turn as the
//! reference plays it, in the rule page's words (the way the piece faced,
//! the rule that moved it, the way it faces after a turn round, and the
//! stack it ends in, bottom first), every piece's cell and direction after
//! each turn (the state the next turn reads), then how the game ended.

use lockstep_core::new_game2::{Answer, Case, Colour, Dir, End, Piece, Rule, Step, TURN_LIMIT};
use lockstep_core::Model;
use lockstep_reference::Fuel;
use std::fmt::Write;

fn rule_words(rule: Rule) -> &'static str {
    match rule {
        Rule::White => "onto a white cell, the group's order kept",
        Rule::Red => "onto a red cell, the moving group reversed",
        Rule::TurnedWhite => "turned round (blue or the edge ahead), then onto a white cell",
        Rule::TurnedRed => "turned round (blue or the edge ahead), then onto a red cell",
        Rule::TurnedStayed => "turned round, and blue or the edge behind too: stayed",
    }
}

/// A direction as the rule page names it, with its input code.
fn dir_words(dir: Dir) -> String {
    let name = match dir {
        Dir::Right => "right",
        Dir::Left => "left",
        Dir::Up => "up",
        Dir::Down => "down",
    };
    format!("{name} ({})", dir.code())
}

/// Every piece's cell and direction, piece 1 first, on one line.
fn pieces_words(pieces: &[Piece]) -> String {
    let words: Vec<String> = pieces
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{} at ({},{}) {}", i + 1, p.row, p.col, dir_words(p.dir)))
        .collect();
    words.join("; ")
}

/// The header: the board's colours, then the pieces as they start.
fn start(case: &Case) -> String {
    let mut out = format!(
        "a {0}x{0} board, {1} pieces; rows and columns 1-based, row 1 at the top; directions as the input: 1 right, 2 left, 3 up, 4 down\n",
        case.n,
        case.pieces.len()
    );
    let _ = writeln!(
        out,
        "the board (. white, r red, B blue), columns 1 to {} left to right:",
        case.n
    );
    for (index, row) in case.board.chunks(case.n).enumerate() {
        let cells: Vec<&str> = row
            .iter()
            .map(|colour| match colour {
                Colour::White => ".",
                Colour::Red => "r",
                Colour::Blue => "B",
            })
            .collect();
        let _ = writeln!(out, "  {:>2} {}", index + 1, cells.join(" "));
    }
    let _ = writeln!(
        out,
        "the pieces at the start: {}",
        pieces_words(&case.pieces)
    );
    out
}

/// One step's line: the way the piece faced, where it went and by which
/// rule, the way it faces after a turn round, and the stack it ends in.
fn step_line(step: &Step, facing: Dir, after: &[Piece]) -> String {
    let stack: Vec<String> = step
        .stack
        .iter()
        .take_while(|&&p| p != 0)
        .map(u8::to_string)
        .collect();
    let now = after[usize::from(step.piece) - 1].dir;
    let turned = match now == facing {
        true => String::new(),
        false => format!("; now facing {}", dir_words(now)),
    };
    format!(
        "  piece {} facing {}, from ({},{}) to ({},{}): {}{turned}; the stack there, bottom first: {}\n",
        step.piece,
        dir_words(facing),
        step.from.0,
        step.from.1,
        step.to.0,
        step.to.1,
        rule_words(step.rule),
        stack.join(" ")
    )
}

/// The account of `case`, or `None` when the reference runs out of `fuel`.
pub(super) fn trace(case: &Case, fuel: &mut Fuel) -> Option<String> {
    let (steps, end) = lockstep_reference::new_game2::account(case, fuel).ok()?;
    let mut out = start(case);
    let mut pieces: &[Piece] = &case.pieces;
    let mut turn = 0;
    // The step the game ends on shows the pieces as "when it ended" instead.
    let ends = matches!(end, End::Ended { .. });
    for (index, (step, after)) in steps.iter().enumerate() {
        if step.turn != turn {
            turn = step.turn;
            let _ = writeln!(out, "turn {turn}:");
        }
        let facing = pieces[usize::from(step.piece) - 1].dir;
        out.push_str(&step_line(step, facing, after));
        pieces = after;
        let ending = ends && index + 1 == steps.len();
        if usize::from(step.piece) == case.pieces.len() && !ending {
            let _ = writeln!(out, "  after turn {turn}: {}", pieces_words(pieces));
        }
    }
    let answer = match end {
        End::Ended { turn } => {
            let _ = writeln!(
                out,
                "  when it ended: {}\na stack reached four pieces: the game ends on turn {turn}",
                pieces_words(pieces)
            );
            Answer::EndsOnTurn(turn)
        }
        _ => {
            let _ = writeln!(
                out,
                "no stack reached four pieces within {TURN_LIMIT} turns"
            );
            Answer::NotWithinLimit
        }
    };
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&Case::write_answer(&answer));
    Some(out)
}
