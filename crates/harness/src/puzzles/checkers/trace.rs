//! `lockstep solve checkers --trace`: each instance's position, then each
//! written move the reference applied with the board after it, and the
//! ruling (all valid, or the first invalid move).

use lockstep_core::checkers::{Case, Ruling, Side};
use lockstep_core::Model;
use lockstep_reference::checkers::{trace_instance, Grid};
use lockstep_reference::{Fuel, Naive};
use std::fmt::Write;

/// The account of `case`, or `None` when the reference runs out of `fuel`.
pub(super) fn trace(case: &Case, fuel: u64) -> Option<String> {
    let answer = case.solve_naively(&mut Fuel::new(fuel)).ok()?.answer;
    let mut out = String::from(
        "boards: r and w men, R and W kings, . an empty dark square; square numbers on the right\n",
    );
    for (index, instance) in case.instances.iter().enumerate() {
        let start = Grid::from_pieces(&instance.red, &instance.white).board();
        let side = match instance.to_move {
            Side::Red => "Red",
            Side::White => "White",
        };
        let _ = writeln!(out, "instance {}: {side} to move\n{start}", index + 1);
        let applied = trace_instance(instance);
        for (number, (written, after)) in instance.moves.iter().zip(&applied.boards).enumerate() {
            let _ = writeln!(
                out,
                "move {}: {written}, legal; after it:\n{after}",
                number + 1
            );
        }
        let _ = match applied.verdict {
            Ruling::AllValid => writeln!(out, "every move is legal"),
            Ruling::Invalid(k) => writeln!(
                out,
                "move {k}: {} is not legal here; the moves after it are not read",
                instance.moves[k - 1]
            ),
        };
    }
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&Case::write_answer(&answer));
    Some(out)
}
