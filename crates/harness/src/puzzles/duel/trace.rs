//! `lockstep solve duel --trace`: each `duel step` line's two action slots,
//! phase by phase as the reference resolves them (both players' cells and
//! health, and what each phase did to each), then the line's result.

use lockstep_core::duel::{write_result, write_turn, Case};
use lockstep_core::duel::{Phase, BLOCKED, CANCELLED, EFFECTIVE, HIT, MOVED, OUT};
use lockstep_reference::{Fuel, Naive};
use std::fmt::Write;

/// The phase's name in the rule page's words.
fn phase_words(phase: Phase) -> &'static str {
    match phase {
        Phase::Dash => "dashes",
        Phase::GuardThrust => "guards and thrusts",
        Phase::MoveCharge => "moves and charges",
        Phase::Strike => "strikes",
        Phase::Comparison => "attacks compared",
        Phase::PushDamage => "pushes and damage",
    }
}

/// What the flags of one player in one event say, in words.
fn flag_words(flags: u8) -> String {
    let words: Vec<&str> = [
        (MOVED, "moved"),
        (HIT, "hit"),
        (BLOCKED, "blocked"),
        (CANCELLED, "cancelled"),
        (EFFECTIVE, "effective"),
        (OUT, "pushed out"),
    ]
    .iter()
    .filter(|(bit, _)| flags & bit != 0)
    .map(|&(_, word)| word)
    .collect();
    match words.is_empty() {
        true => String::new(),
        false => format!(" ({})", words.join(", ")),
    }
}

/// The account of `case`, or `None` when the reference runs out of `fuel`.
pub(super) fn trace(case: &Case, fuel: u64) -> Option<String> {
    let answer = case.solve_naively(&mut Fuel::new(fuel)).ok()?.answer;
    let events = lockstep_reference::duel::trace(case);
    let mut out = String::from("cells as (row,col); hp is health\n");
    for (index, ((turn, events), result)) in case.iter().zip(&events).zip(&answer).enumerate() {
        let _ = writeln!(out, "line {}: {}", index + 1, write_turn(turn));
        for e in events {
            let [p1, p2] = [0, 1].map(|p| {
                format!(
                    "P{} at ({},{}) hp {}{}",
                    p + 1,
                    e.pos[p].0,
                    e.pos[p].1,
                    e.hp[p],
                    flag_words(e.flags[p])
                )
            });
            let _ = writeln!(
                out,
                "  slot {}, {}: {p1}; {p2}",
                e.slot + 1,
                phase_words(e.phase)
            );
        }
        if events.is_empty() {
            out.push_str(
                "  no slot is resolved: an action list is illegal (the rule page's legality)\n",
            );
        }
        let _ = writeln!(out, "  result: {}", write_result(result));
    }
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&<Case as lockstep_core::Model>::write_answer(&answer));
    Some(out)
}
