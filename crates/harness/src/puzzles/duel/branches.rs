//! The duel's rule branches, read off the core's traced path: a line's
//! events and result give the branches it goes through (`--stats`,
//! `verify`'s certificate, the generator-reach test).

use super::*;

/// Which [`RULE_BRANCHES`] one line goes through, from a run of the core's
/// traced path on it alone.
pub(super) fn turn_branches(turn: &Turn) -> u64 {
    let (result, events) = core_events(turn);
    line_branches(turn, &result, &events)
}

/// Every event of the core's traced path over a case, and where each line
/// after the first begins among them: what [`Duel::solve_counting`] reads
/// the branches off, from the run that answers.
pub(super) struct Lines {
    pub(super) events: Vec<Event>,
    pub(super) starts: Vec<usize>,
}

impl Sink for Lines {
    const ACTIVE: bool = true;
    fn event(&mut self, event: Event) {
        self.events.push(event);
    }
    fn line(&mut self, i: usize) {
        // The first line begins at 0: a case of one line allocates no
        // list of starts.
        if i > 0 {
            self.starts.push(self.events.len());
        }
    }
}

/// Which [`RULE_BRANCHES`] one line goes through, from the core's result and
/// events on it.
pub(super) fn line_branches(turn: &Turn, result: &model::TurnResult, events: &[Event]) -> u64 {
    let mut bits = 0u64;
    let mut before = [turn.state.players[0].pos, turn.state.players[1].pos];
    let mut hits = [false; 2];
    // Whose move a thrust cancelled in this slot: its guard-and-thrust
    // event comes before its move-and-charge event.
    let (mut slot, mut cancelled) = (u8::MAX, [false; 2]);
    for e in events {
        if e.slot != slot {
            (slot, cancelled) = (e.slot, [false; 2]);
        }
        let acts = [
            turn.actions[0][e.slot as usize],
            turn.actions[1][e.slot as usize],
        ];
        for p in 0..2 {
            if e.phase == Phase::GuardThrust {
                cancelled[p] = e.flags[p] & CANCELLED != 0;
            }
            bits |= action_branches(e, cancelled[p], p, acts[p], before[p]);
            if e.phase == Phase::GuardThrust || e.phase == Phase::Strike {
                hits[p] |= e.flags[p] & HIT != 0;
            }
        }
        match e.phase {
            Phase::Comparison => bits |= comparison_branches(e, hits),
            Phase::PushDamage => {
                if e.flags.iter().any(|f| f & OUT != 0) {
                    bits |= 1 << 13;
                }
                hits = [false; 2];
            }
            _ => {}
        }
        before = e.pos;
    }
    // A cooldown is a rule of its own: a list that names a skill whose wait
    // is not over (illegal, whatever else the list holds).
    let cooling = (0..2).any(|p| {
        turn.actions[p].iter().any(|a| {
            a.skill()
                .is_some_and(|k| turn.state.players[p].waits[k] > 0)
        })
    });
    bits | ending_branches(result) | u64::from(cooling) << 19
}

/// The branches player `p`'s action `act` goes through in event `e` of
/// its line, from where it stood before the event (`cancelled`: a thrust
/// cancelled its move in this slot).
fn action_branches(e: &Event, cancelled: bool, p: usize, act: Action, before: Cell) -> u64 {
    let (code, f) = (act.code, e.flags[p]);
    let bit = |i: usize| 1u64 << i;
    match e.phase {
        Phase::Dash if code == DASH => bit(if f & MOVED != 0 { 0 } else { 1 }),
        Phase::GuardThrust => {
            let mut bits = 0;
            if f & BLOCKED != 0 {
                bits |= bit(2);
            }
            if f & HIT != 0 {
                bits |= bit(3);
            }
            if f & CANCELLED != 0 {
                bits |= bit(4);
            }
            bits
        }
        Phase::MoveCharge => {
            let mut bits = 0;
            let target = act.dir.map(|d| {
                let (dr, dc) = d.delta();
                (before.0 + dr, before.1 + dc)
            });
            let could = target.is_some_and(model::inside);
            if code == MOVE && could && f & MOVED == 0 && !cancelled {
                bits |= bit(5);
            }
            if code == CHARGE {
                bits |= bit(if f & MOVED != 0 { 6 } else { 7 });
            }
            bits
        }
        Phase::Strike => {
            let mut bits = 0;
            if f & BLOCKED != 0 {
                bits |= bit(2);
            }
            if f & HIT != 0 {
                bits |= bit(match code {
                    3 => 8,
                    CHARGE => 9,
                    _ => 10,
                });
            }
            bits
        }
        _ => 0,
    }
}

/// The branches of a comparison event `e`: a tie of effective attacks, or
/// one larger attack. (A push that stops short because both players would
/// enter one cell has no branch: no valid line reaches it, as
/// `tests/it/duel.rs::no_push_ever_stops_on_a_shared_cell` proves for
/// every placement; docs/rules/duel.md, "Decisions".)
fn comparison_branches(e: &Event, hits: [bool; 2]) -> u64 {
    let eff = [e.flags[0] & EFFECTIVE != 0, e.flags[1] & EFFECTIVE != 0];
    if eff[0] && eff[1] {
        1 << 11
    } else if hits[0] && hits[1] {
        1 << 12
    } else {
        0
    }
}

/// The branch of how the line's turn ended the game, if it did.
fn ending_branches(result: &model::TurnResult) -> u64 {
    match result.outcome {
        Outcome::Ended(w, reason) if w != Winner::Draw || reason == Reason::Illegal => {
            1 << match reason {
                Reason::Hp => 14,
                Reason::Out => 15,
                Reason::Blessing => 16,
                Reason::Turns => 17,
                Reason::Illegal => 18,
            }
        }
        Outcome::Ended(_, Reason::Turns) => 1 << 17,
        _ => 0,
    }
}
