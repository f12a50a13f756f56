//! `lockstep solve checkers --trace`: each instance's position, then each
//! written move the reference applied with the board after it, and the
//! ruling: all valid, or the first invalid move, why (the rule branch it
//! falls under) and the legal moves there, by the reference's list.

use lockstep_core::checkers::{Case, Ruling, Side};
use lockstep_core::Model;
use lockstep_reference::checkers::{trace_instance, Grid};
use lockstep_reference::{Fuel, Naive};
use std::fmt::Write;

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Red => "Red",
        Side::White => "White",
    }
}

/// The account of `case`, or `None` when the reference runs out of `fuel`.
pub(super) fn trace(case: &Case, fuel: &mut Fuel) -> Option<String> {
    let answer = case.solve_naively(fuel).ok()?.answer;
    let mut out = String::from(
        "boards: r and w men, R and W kings, . an empty dark square; square numbers on the right\n",
    );
    for (index, instance) in case.instances.iter().enumerate() {
        let start = Grid::from_pieces(&instance.red, &instance.white).board();
        let _ = writeln!(
            out,
            "instance {}: {} to move\n{start}",
            index + 1,
            side_name(instance.to_move)
        );
        let applied = trace_instance(instance);
        for (number, (written, after)) in instance.moves.iter().zip(&applied.boards).enumerate() {
            // The sides alternate from the one to move.
            let next = match number % 2 {
                0 => instance.to_move.opponent(),
                _ => instance.to_move,
            };
            let _ = writeln!(
                out,
                "move {}: {written}, legal; after it, {} to move:\n{after}",
                number + 1,
                side_name(next)
            );
        }
        let _ = match applied.verdict {
            Ruling::AllValid => writeln!(out, "every move is legal"),
            Ruling::Invalid(k) => {
                // The position before move k, and whose move it is (the
                // sides alternate from the one to move).
                let before = match k {
                    1 => start,
                    _ => applied.boards[k - 2],
                };
                let side = match k % 2 {
                    1 => instance.to_move,
                    _ => instance.to_move.opponent(),
                };
                let path = &instance.moves[k - 1].0;
                let why = match path.len() {
                    0 | 1 => "invalid: fewer than two squares",
                    _ => super::branches::why_invalid(&before, side, path),
                };
                let legal: Vec<String> = super::branches::legal_paths(&before, side)
                    .iter()
                    .map(|p| p.iter().map(u32::to_string).collect::<Vec<_>>().join("-"))
                    .collect();
                writeln!(
                    out,
                    "move {k}: {} is not legal here ({why}); the legal moves: {}; the moves after it are not read",
                    instance.moves[k - 1],
                    match legal.is_empty() {
                        true => "none".to_string(),
                        false => legal.join(", "),
                    }
                )
            }
        };
    }
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&Case::write_answer(&answer));
    Some(out)
}
