//! The duel's rule branches, read off the core's traced path: a line's
//! events and result give the branches it goes through (`--stats`,
//! `verify`'s certificate, the generator-reach test).
//!
//! The branches are counted as the core emits its events ([`Counter`], a
//! [`Sink`]), in the run that answers: verify counts every line of every
//! case, and keeping the events to read them again afterwards cost more
//! than reading them (docs/notes/2026-12-05-verify-speed.md).

use super::*;

/// Which [`RULE_BRANCHES`] one line goes through, from a run of the core's
/// traced path on it alone.
pub(super) fn turn_branches(turn: &Turn) -> u64 {
    let case = std::slice::from_ref(turn);
    let mut counter = Counter::new(case);
    counter.line(0);
    let result = model::resolve_traced(&turn.state, &turn.actions, &mut counter);
    counter.bits | ending_branches(turn, &result)
}

/// The branches of a case's lines, counted event by event as the core's
/// traced path reports them ([`model::solve_with`] calls
/// [`Sink::line`] before each line's events). What a line's result adds
/// (how the game ended) is [`ending_branches`], added by the caller.
pub(super) struct Counter<'a> {
    case: &'a [Turn],
    /// The branches of every line so far.
    pub(super) bits: u64,
    /// The current line's action lists.
    actions: [Actions; 2],
    /// The players' cells after the previous event.
    before: [Cell; 2],
    /// Whose attack hit in this slot so far (thrust, then strike).
    hits: [bool; 2],
    /// The slot of the previous event.
    slot: u8,
    /// Whose move a thrust cancelled in this slot: its guard-and-thrust
    /// event comes before its move-and-charge event.
    cancelled: [bool; 2],
    /// Each player's action in the current slot.
    acts: [Action; 2],
}

impl<'a> Counter<'a> {
    pub(super) fn new(case: &'a [Turn]) -> Self {
        Counter {
            case,
            bits: 0,
            actions: [[Action::WAIT; 2]; 2],
            before: [(0, 0); 2],
            hits: [false; 2],
            slot: u8::MAX,
            cancelled: [false; 2],
            acts: [Action::WAIT; 2],
        }
    }
}

impl Sink for Counter<'_> {
    const ACTIVE: bool = true;

    fn line(&mut self, i: usize) {
        let turn = &self.case[i];
        self.actions = turn.actions;
        self.before = [turn.state.players[0].pos, turn.state.players[1].pos];
        self.hits = [false; 2];
        self.slot = u8::MAX;
        self.bits |= cooling_branch(turn);
    }

    #[inline(always)]
    fn event(&mut self, e: Event) {
        if e.slot != self.slot {
            self.slot = e.slot;
            self.cancelled = [false; 2];
            let s = usize::from(e.slot);
            self.acts = [self.actions[0][s], self.actions[1][s]];
        }
        let bit = |i: usize| 1u64 << i;
        let mut bits = 0;
        for p in 0..2 {
            let (code, f) = (self.acts[p].code, e.flags[p]);
            match e.phase {
                Phase::Dash if code == DASH => bits |= bit(if f & MOVED != 0 { 0 } else { 1 }),
                Phase::GuardThrust => {
                    self.cancelled[p] = f & CANCELLED != 0;
                    self.hits[p] |= f & HIT != 0;
                    bits |=
                        flag_bit(f, BLOCKED, 2) | flag_bit(f, HIT, 3) | flag_bit(f, CANCELLED, 4);
                }
                // Blocked: it could have moved (its cell inside the yard)
                // and no thrust cancelled it, yet it did not.
                Phase::MoveCharge
                    if code == MOVE
                        && f & MOVED == 0
                        && !self.cancelled[p]
                        && self.could_move(p) =>
                {
                    bits |= bit(5);
                }
                Phase::MoveCharge if code == CHARGE => {
                    bits |= bit(if f & MOVED != 0 { 6 } else { 7 });
                }
                Phase::Strike => {
                    self.hits[p] |= f & HIT != 0;
                    bits |= flag_bit(f, BLOCKED, 2);
                    if f & HIT != 0 {
                        bits |= bit(match code {
                            SWEEP => 8,
                            CHARGE => 9,
                            _ => 10,
                        });
                    }
                }
                _ => {}
            }
        }
        match e.phase {
            Phase::Comparison => bits |= comparison_branches(&e, self.hits),
            Phase::PushDamage => {
                if e.flags.iter().any(|f| f & OUT != 0) {
                    bits |= bit(13);
                }
                self.hits = [false; 2];
            }
            _ => {}
        }
        self.bits |= bits;
        self.before = e.pos;
    }
}

impl Counter<'_> {
    /// Whether player `p`'s move of this slot points inside the yard from
    /// where it stood before the event.
    fn could_move(&self, p: usize) -> bool {
        self.acts[p].dir.is_some_and(|d| {
            let (dr, dc) = d.delta();
            model::inside((self.before[p].0 + dr, self.before[p].1 + dc))
        })
    }
}

/// `1 << to` when `flags` holds `flag`.
#[inline(always)]
fn flag_bit(flags: u8, flag: u8, to: usize) -> u64 {
    u64::from(flags & flag != 0) << to
}

/// A cooldown is a rule of its own: a list that names a skill whose wait
/// is not over (illegal, whatever else the list holds).
fn cooling_branch(turn: &Turn) -> u64 {
    let cooling = (0..2).any(|p| {
        turn.actions[p].iter().any(|a| {
            a.skill()
                .is_some_and(|k| turn.state.players[p].waits[k] > 0)
        })
    });
    u64::from(cooling) << 19
}

/// The branches of a comparison event `e`: a tie of effective attacks, or
/// one larger attack. (A push that stops short because both players would
/// enter one cell has no branch: no valid line reaches it, as
/// `tests/it/duel.rs::no_push_ever_stops_on_a_shared_cell` proves for
/// every placement; docs/guide/src/rules/duel.md, "Decisions".)
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

/// Whether a turn that ended in a loss lost it in the second slot: the same
/// first actions, both then waiting, lose nothing (the first slot is
/// played alike; two waits neither hit nor push).
fn lost_in_the_second_slot(turn: &Turn) -> bool {
    let mut first_only = turn.actions;
    first_only[0][1] = Action::WAIT;
    first_only[1][1] = Action::WAIT;
    let outcome = model::resolve_turn(&turn.state, &first_only).outcome;
    !matches!(outcome, Outcome::Ended(_, Reason::Hp | Reason::Out))
}

/// The branches of how the line's turn ended the game, if it did: the
/// reason, and where the rules order two checks that both hold on this
/// turn, the pair (a loss or a blessing on turn 60, a loss in the second
/// slot while a player stands on the spring at 9, an illegal list on turn
/// 60).
pub(super) fn ending_branches(turn: &Turn, result: &model::TurnResult) -> u64 {
    let state = &turn.state;
    let last = state.turn == 60;
    let lost = matches!(result.outcome, Outcome::Ended(_, Reason::Hp | Reason::Out));
    let due = (0..2)
        .any(|p| state.players[p].blessing == 9 && result.next.players[p].pos == state.spring);
    let both = match result.outcome {
        Outcome::Ended(_, Reason::Blessing) if last => 1 << 20,
        Outcome::Ended(_, Reason::Hp | Reason::Out) if last => 1 << 21,
        Outcome::Ended(_, Reason::Illegal) if last => 1 << 23,
        _ => 0,
    } | u64::from(lost && due && lost_in_the_second_slot(turn)) << 22;
    both | match result.outcome {
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
