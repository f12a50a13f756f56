//! `lockstep solve duel --trace`: each `duel step` line's state (both
//! players' cells, hp, blessing and skill waits), its two action slots
//! phase by phase as the reference resolves them (both players' cells and
//! health, and what each phase did to each), the next turn's state (the
//! waits after the cool-downs, the spring's blessing), then the line's
//! result.

use lockstep_core::duel::{action_name, write_result, write_turn, Action, Case, Event, Player};
use lockstep_core::duel::{Outcome, State, Turn, TurnResult, Winner, DASH, THRUST};
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

/// A player's state as the rules read it: cell, hp, blessing, and each
/// skill's wait (0: usable this turn).
fn player_words(player: &Player) -> String {
    let waits: Vec<String> = (THRUST..=DASH)
        .zip(player.waits)
        .map(|(code, wait)| format!("{} {wait}", action_name(code)))
        .collect();
    format!(
        "at ({},{}) hp {} blessing {}, waits {}",
        player.pos.0,
        player.pos.1,
        player.hp,
        player.blessing,
        waits.join(" ")
    )
}

/// Both players' state on one line.
fn state_words(state: &State) -> String {
    format!(
        "P1 {}; P2 {}",
        player_words(&state.players[0]),
        player_words(&state.players[1])
    )
}

/// An action in words and as written: `thrust R (2 R)`, `wait (0)`.
fn action_words(action: Action) -> String {
    match action.dir {
        Some(dir) => format!("{} {} ({action})", action_name(action.code), dir.name()),
        None => format!("{} ({action})", action_name(action.code)),
    }
}

/// Whose list is illegal, from the result of a line that resolves no slot.
fn illegal_words(result: &TurnResult) -> &'static str {
    match result.outcome {
        Outcome::Ended(Winner::P1, _) => "P2's action list is illegal",
        Outcome::Ended(Winner::P2, _) => "P1's action list is illegal",
        _ => "both action lists are illegal",
    }
}

/// One line's account: the state it starts from, each slot's actions and
/// phases, the state the next turn starts from (cool-downs counted, the
/// spring's blessing given) and the result.
fn line_lines(out: &mut String, number: usize, turn: &Turn, events: &[Event], result: &TurnResult) {
    let _ = writeln!(out, "line {number}: {}", write_turn(turn));
    let state = &turn.state;
    let _ = writeln!(
        out,
        "  turn {}, the spring at ({},{}); at the start: {}",
        state.turn,
        state.spring.0,
        state.spring.1,
        state_words(state)
    );
    let mut slot = None;
    for e in events {
        if slot != Some(e.slot) {
            slot = Some(e.slot);
            let [a1, a2] = turn.actions.map(|a| action_words(a[usize::from(e.slot)]));
            let _ = writeln!(out, "  slot {}: P1 plays {a1}, P2 plays {a2}", e.slot + 1);
        }
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
        let _ = writeln!(
            out,
            "  no slot is resolved: {} (the rule page's legality)",
            illegal_words(result)
        );
    }
    let _ = writeln!(
        out,
        "  the next turn's state: {}",
        state_words(&result.next)
    );
    let _ = writeln!(out, "  result: {}", write_result(result));
}

/// The account of `case`, or `None` when the reference runs out of `fuel`.
pub(super) fn trace(case: &Case, fuel: &mut Fuel) -> Option<String> {
    let answer = case.solve_naively(fuel).ok()?.answer;
    let events = lockstep_reference::duel::trace(case);
    let mut out = String::from(
        "cells as (row,col); hp is health; a wait is the turns a skill must still wait (0: usable this turn)\n",
    );
    for (index, ((turn, events), result)) in case.iter().zip(&events).zip(&answer).enumerate() {
        line_lines(&mut out, index + 1, turn, events, result);
    }
    out.push_str("answer (the reference's judge output):\n");
    out.push_str(&<Case as lockstep_core::Model>::write_answer(&answer));
    Some(out)
}
