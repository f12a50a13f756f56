//! What a duel disagreement is, for its bug signature ([`crate::signature`]).

use super::*;

/// What a duel disagreement is: on the first line whose results differ,
/// which parts of the next state differ (either player's alike), and the
/// rule branches of the line that decide a fight (a guard, a hit, a
/// cancelled move, a comparison, a push out: [`RULE_BRANCHES`] 2 to 4, 8 to
/// 12, 14).
pub(super) fn duel_signature(
    case: &Case,
    core: &Answer,
    reference: &Answer,
    solver: crate::puzzle::Solver<Duel>,
) -> String {
    let Some((turn, (c, r))) = case
        .iter()
        .zip(core.iter().zip(reference))
        .find(|(_, (c, r))| c != r)
    else {
        return "same-results-different-events".to_string();
    };
    let mut parts = Vec::new();
    if c.outcome != r.outcome {
        parts.push("result");
    }
    // Each part of a player's state, compared for both players at once.
    let differs = |part: usize| {
        c.next
            .players
            .iter()
            .zip(&r.next.players)
            .any(|(a, b)| match part {
                0 => a.pos != b.pos,
                1 => a.hp != b.hp,
                2 => a.blessing != b.blessing,
                _ => a.waits != b.waits,
            })
    };
    for (i, name) in ["pos", "hp", "blessing", "waits"].into_iter().enumerate() {
        if differs(i) {
            parts.push(name);
        }
    }
    // The slot where the two part: the first, if they part with the second
    // slot's actions made waits; the branches are that slot's alone.
    let waits_after = |turn: &Turn, slot: usize| {
        let mut only = *turn;
        for p in 0..2 {
            for s in slot..2 {
                only.actions[p][s] = model::Action::WAIT;
            }
        }
        only
    };
    let first_slot = waits_after(turn, 1);
    let first_slot_parts = {
        use lockstep_reference::Naive;
        let alone: Case = vec![first_slot];
        let c = crate::puzzle::run_core::<Duel>(&alone, solver);
        let r = alone.solve_naively(&mut lockstep_reference::Fuel::new(Duel::FUEL));
        c.answer() != r.as_ref().ok().map(|run| &run.answer)
    };
    let bits = if first_slot_parts {
        turn_branches(&first_slot)
    } else {
        turn_branches(turn) & !turn_branches(&first_slot)
    };
    let deciding: Vec<String> = [2usize, 3, 4, 8, 9, 10, 11, 12, 14]
        .into_iter()
        .filter(|&i| bits >> i & 1 == 1)
        .map(|i| crate::signature::folded(RULE_BRANCHES[i]))
        .collect();
    format!(
        "{}:{}",
        parts.join("+"),
        if deciding.is_empty() {
            "plain".to_string()
        } else {
            deciding.join("+")
        }
    )
}
