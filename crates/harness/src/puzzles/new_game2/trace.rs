//! `lockstep solve new-game2 --trace`: every piece's move of every turn as
//! the reference plays it, in the rule page's words (the rule that moved it,
//! and the stack it ends in, bottom first), then how the game ended.

use lockstep_core::new_game2::{Case, End, Rule, TURN_LIMIT};
use lockstep_core::Model;
use lockstep_reference::{Fuel, Naive};
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

/// The account of `case`, or `None` when the reference runs out of `fuel`.
pub(super) fn trace(case: &Case, fuel: u64) -> Option<String> {
    let answer = case.solve_naively(&mut Fuel::new(fuel)).ok()?.answer;
    let trace = lockstep_reference::new_game2::trace(case, usize::MAX);
    let mut out = format!(
        "a {0}x{0} board, {1} pieces; rows and columns 1-based\n",
        case.n,
        case.pieces.len()
    );
    let mut turn = 0;
    for step in &trace.steps {
        if step.turn != turn {
            turn = step.turn;
            let _ = writeln!(out, "turn {turn}:");
        }
        let stack: Vec<String> = step
            .stack
            .iter()
            .take_while(|&&p| p != 0)
            .map(u8::to_string)
            .collect();
        let _ = writeln!(
            out,
            "  piece {} from ({},{}) to ({},{}): {}; the stack there, bottom first: {}",
            step.piece,
            step.from.0,
            step.from.1,
            step.to.0,
            step.to.1,
            rule_words(step.rule),
            stack.join(" ")
        );
    }
    let _ = match trace.end {
        End::Ended { turn } => writeln!(
            out,
            "a stack reached four pieces: the game ends on turn {turn}"
        ),
        _ => writeln!(
            out,
            "no stack reached four pieces within {TURN_LIMIT} turns"
        ),
    };
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&Case::write_answer(&answer));
    Some(out)
}
