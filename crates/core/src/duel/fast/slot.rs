//! The slot resolver: one slot's six phases on two cells and two hp values,
//! the event sinks, and a turn as two slots.

use super::*;

/// Receives one [`Event`] per phase of every slot performed.
pub trait Sink {
    /// False for sinks that drop events: the resolver then builds none.
    const ACTIVE: bool;
    fn event(&mut self, event: Event);
    /// Line `i` of a case begins ([`super::solve_with`]): its events follow.
    #[inline(always)]
    fn line(&mut self, _i: usize) {}
}

/// Two sinks as one: the digest, and a second that `()` makes free.
pub(super) struct Both<'a, S>(pub &'a mut Digest, pub &'a mut S);

impl<S: Sink> Sink for Both<'_, S> {
    const ACTIVE: bool = true;
    #[inline(always)]
    fn event(&mut self, event: Event) {
        self.0.event(event);
        if S::ACTIVE {
            self.1.event(event);
        }
    }
}

impl Sink for () {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

impl Sink for Digest {
    const ACTIVE: bool = true;
    #[inline]
    fn event(&mut self, event: Event) {
        self.push(event.packed());
    }
}

/// Keeps every event, for reports.
#[derive(Debug, Default, Clone)]
pub struct Recorder(pub Vec<Event>);

impl Sink for Recorder {
    const ACTIVE: bool = true;
    fn event(&mut self, event: Event) {
        self.0.push(event);
    }
}

/// The cell index of a position inside the yard. Wrapping: a position just
/// outside gives a meaningless index that the callers select away, not a panic.
#[inline(always)]
pub(super) fn cell_of((r, c): Cell) -> u8 {
    (r.wrapping_sub(1) as u8)
        .wrapping_mul(N as u8)
        .wrapping_add(c.wrapping_sub(1) as u8)
}

/// (row, column) of each cell index, by table (a division by 7 otherwise).
pub(super) const RC: [Cell; 64] = {
    let mut t = [(0i8, 0i8); 64];
    let mut cell = 0;
    while cell < CELLS {
        t[cell] = ((cell / N) as i8 + 1, (cell % N) as i8 + 1);
        cell += 1;
    }
    t
};

#[inline(always)]
pub(super) fn rc(cell: u8) -> Cell {
    RC[usize::from(cell & 63)]
}

/// `a` if `cond`, else `b`, written so that the optimiser keeps it a select: the
/// outcome of these tests follows the random actions of a search, so a branch
/// would be mispredicted about half the time.
#[inline(always)]
pub(super) fn pick<T: Copy>(cond: bool, a: T, b: T) -> T {
    [b, a][usize::from(cond)]
}

/// Whether bit `cell` of `area` is set.
#[inline(always)]
pub(super) fn covers(area: u64, cell: u8) -> bool {
    area >> cell & 1 != 0
}

/// The movement rules of phases 1 and 3: `t` holds each mover's target or
/// [`NONE`] for a player that does not move in this phase.
#[inline(always)]
pub(super) fn movement(cells: &mut [u8; 2], t: [u8; 2]) -> [bool; 2] {
    // A mover is stopped by a shared target, or by the other's cell unless the
    // other leaves it and does not come to the mover's (a swap). For a player
    // that does not move, `t` is NONE, which is never a cell and never a target
    // of the other, so one formula covers one mover and two.
    let same_target = t[0] == t[1];
    let stays = [t[0] == NONE, t[1] == NONE];
    let go = both(|p| {
        let o = 1 - p;
        let into_other = (t[p] == cells[o]) & (stays[o] | (t[o] == cells[p]));
        !stays[p] & !same_target & !into_other
    });
    *cells = [pick(go[0], t[0], cells[0]), pick(go[1], t[1], cells[1])];
    go
}

/// The two players while a slot runs: their cells (always inside the yard: a
/// player pushed out keeps its last cell here, and [`Slot::resolve_slot`] returns the
/// position outside) and their hp.
pub(super) struct Slot {
    pub(super) cells: [u8; 2],
    pub(super) hp: [i8; 2],
}

/// `[f(0), f(1)]`: the two players' values. (`[0, 1].map(f)` compiles to a loop
/// through `try_map` that the optimiser does not always unroll on this hot path.)
#[inline(always)]
pub(super) fn both<T>(f: impl Fn(usize) -> T) -> [T; 2] {
    [f(0), f(1)]
}

#[inline(always)]
pub(super) fn flag(cond: bool, bit: u8) -> u8 {
    u8::from(cond) * bit
}

impl Slot {
    #[inline(always)]
    pub(super) fn emit<S: Sink>(&self, sink: &mut S, slot: u8, phase: Phase, flags: [u8; 2]) {
        if S::ACTIVE {
            sink.event(Event {
                slot,
                phase,
                pos: [rc(self.cells[0]), rc(self.cells[1])],
                hp: self.hp,
                flags,
            });
        }
    }

    /// Resolves one pair of simultaneous actions, given by action id. Returns
    /// where both stand after the pushes and whether each is outside the yard
    /// when an attack took effect, `None` when none did: then both are inside, on
    /// `cells` (most slots: converting cells to coordinates only when needed saves
    /// work on the search's hot path).
    ///
    /// This is straight-line code over table rows: which of the two players
    /// dashes, guards, thrusts or strikes is data, not control flow, because in a
    /// search (and in random games) it changes from one call to the next and
    /// branches on it would be mispredicted about half the time.
    #[inline(always)]
    pub(super) fn resolve_slot<S: Sink>(
        &mut self,
        slot: u8,
        id: [usize; 2],
        sink: &mut S,
    ) -> Option<([Cell; 2], [bool; 2])> {
        let kind = [KIND[id[0]], KIND[id[1]]];
        let does = |p: usize, bits: u8| kind[p] & bits != 0;
        let start = both(|p| usize::from(self.cells[p]));
        let target = both(|p| TARGET[id[p]][start[p]]);
        let area = both(|p| AREA[id[p]][start[p]]);

        // Phase 1: dashes. A second-slot dash off the yard has target NONE.
        let t = both(|p| pick(does(p, DASHES), target[p], NONE));
        let moved = movement(&mut self.cells, t);
        self.emit(sink, slot, Phase::Dash, both(|p| flag(moved[p], MOVED)));

        // Phase 2: guards, then thrusts judged from here.
        let c = self.cells;
        let guard = both(|p| pick(does(p, GUARDS), area[p], 0));
        let thrust_reach = both(|p| does(p, THRUSTS) & covers(area[p], c[1 - p]));
        let thrust_blocked = both(|p| thrust_reach[p] & covers(guard[1 - p], c[p]));
        let thrust_hit = both(|p| thrust_reach[p] & !thrust_blocked[p]);
        let cancelled = both(|p| does(p, MOVES) & thrust_hit[1 - p]);
        self.emit(
            sink,
            slot,
            Phase::GuardThrust,
            both(|p| {
                flag(thrust_blocked[p], BLOCKED)
                    | flag(thrust_hit[p], HIT)
                    | flag(cancelled[p], CANCELLED)
            }),
        );

        // Phase 3: moves (unless cancelled) and charge movements.
        let t = both(|p| {
            let goes = does(p, MOVES | CHARGES) & !cancelled[p];
            pick(goes, target[p], NONE)
        });
        let moved = movement(&mut self.cells, t);
        self.emit(
            sink,
            slot,
            Phase::MoveCharge,
            both(|p| flag(moved[p], MOVED)),
        );

        // Phase 4: sweep, charge and break from where the attackers now stand.
        let c = self.cells;
        let strike_reach =
            both(|p| does(p, STRIKES) & covers(AREA[id[p]][usize::from(c[p])], c[1 - p]));
        let strike_blocked =
            both(|p| strike_reach[p] & !does(p, UNBLOCKABLE) & covers(guard[1 - p], c[p]));
        let strike_hit = both(|p| strike_reach[p] & !strike_blocked[p]);
        self.emit(
            sink,
            slot,
            Phase::Strike,
            both(|p| flag(strike_blocked[p], BLOCKED) | flag(strike_hit[p], HIT)),
        );

        // Phase 5: comparison. A player attacks at most once a slot.
        let hit = both(|p| thrust_hit[p] | strike_hit[p]);
        let damage = both(|p| pick(hit[p], DAMAGE[id[p]], 0));
        let both_hit = hit[0] & hit[1];
        let effective = [
            hit[0] & (!both_hit | (damage[0] >= damage[1])),
            hit[1] & (!both_hit | (damage[1] >= damage[0])),
        ];
        self.emit(
            sink,
            slot,
            Phase::Comparison,
            both(|p| flag(effective[p], EFFECTIVE)),
        );

        // Phase 6: damage and pushes (`push_damage`), when an attack is effective.
        if !(effective[0] | effective[1]) {
            self.emit(sink, slot, Phase::PushDamage, [0, 0]);
            return None;
        }
        let tie = both_hit & (damage[0] == damage[1]);
        Some(self.push_damage(slot, id, (effective, damage, tie), c, sink))
    }

    /// Phase 6 of [`Self::resolve_slot`] once an attack is effective: damage
    /// (none on a tie) and pushes, one cell at a time, at most two steps
    /// each, from the cells `c` the players stand on. Written as two
    /// unconditional rounds: a player with no push left stands still, and
    /// one pushed off the yard stops there.
    #[inline(always)]
    fn push_damage<S: Sink>(
        &mut self,
        slot: u8,
        id: [usize; 2],
        (effective, damage, tie): ([bool; 2], [i8; 2], bool),
        c: [u8; 2],
        sink: &mut S,
    ) -> ([Cell; 2], [bool; 2]) {
        for p in 0..2 {
            self.hp[1 - p] -= pick(effective[p] & !tie, damage[p], 0);
        }
        let mut left = both(|o| pick(effective[1 - o], PUSH[id[1 - o]] as u8, 0));
        // The pusher's facing; `& 7` only keeps a wait's NO_DIR in bounds, and an
        // action that does not push has no push left to step with.
        let step = both(|o| DELTAS[usize::from(ACT_LIST[id[1 - o]].1) & 7]);
        let mut pos = [rc(c[0]), rc(c[1])];
        for _ in 0..2 {
            let going = both(|p| left[p] > 0);
            let next = both(|p| {
                let k = i8::from(going[p]);
                (pos[p].0 + k * step[p].0, pos[p].1 + k * step[p].1)
            });
            // Never both on one cell: the pushes stop before that.
            if next[0] == next[1] {
                break;
            }
            pos = next;
            left = both(|p| pick(super::super::inside(pos[p]), left[p].saturating_sub(1), 0));
        }
        let out = both(|p| !super::super::inside(pos[p]));
        self.cells = both(|p| pick(out[p], self.cells[p], cell_of(pos[p])));
        if S::ACTIVE {
            sink.event(Event {
                slot,
                phase: Phase::PushDamage,
                pos,
                hp: self.hp,
                flags: [flag(out[0], OUT), flag(out[1], OUT)],
            });
        }
        (pos, out)
    }
}

/// Resolves one turn, sending one event per phase of every performed slot to
/// `sink`.
#[inline]
pub fn resolve_traced<S: Sink>(state: &State, actions: &[Actions; 2], sink: &mut S) -> TurnResult {
    let choice = [
        choose(&state.players[0], &actions[0]),
        choose(&state.players[1], &actions[1]),
    ];
    resolve_choices(state, choice, sink)
}

/// [`resolve_traced`] for lists already read by [`choose`] (each for its own
/// player in `state`).
#[inline(always)]
pub(in crate::duel) fn resolve_choices<S: Sink>(
    state: &State,
    choice: [Choice; 2],
    sink: &mut S,
) -> TurnResult {
    let mut next = *state;
    next.turn = state.turn + 1;
    if !(choice[0].legal & choice[1].legal) {
        for p in 0..2 {
            next.players[p].waits = waits_bytes(choice[p].idle_waits);
        }
        let winner = match (choice[0].legal, choice[1].legal) {
            (true, false) => Winner::P1,
            (false, true) => Winner::P2,
            _ => Winner::Draw,
        };
        return TurnResult {
            next,
            outcome: Outcome::Ended(winner, Reason::Illegal),
        };
    }
    for p in 0..2 {
        next.players[p].waits = waits_bytes(choice[p].waits);
    }
    if S::ACTIVE {
        by_slots(state, next, choice, sink)
    } else {
        by_table(state, next, choice)
    }
}

/// Both slots of a legal turn by [`Slot::resolve_slot`], then the end of the turn.
#[inline(always)]
pub(super) fn by_slots<S: Sink>(
    state: &State,
    next: State,
    choice: [Choice; 2],
    sink: &mut S,
) -> TurnResult {
    let mut s = Slot {
        cells: [cell_of(state.players[0].pos), cell_of(state.players[1].pos)],
        hp: [state.players[0].hp, state.players[1].hp],
    };
    let mut pushed = None;
    let mut lost = [false; 2];
    let mut dead = [false; 2];
    for slot in 0..2 {
        let ids = [
            usize::from(choice[0].ids[slot]),
            usize::from(choice[1].ids[slot]),
        ];
        pushed = s.resolve_slot(slot as u8, ids, sink);
        let out = pushed.map_or([false; 2], |(_, out)| out);
        dead = [s.hp[0] <= 0, s.hp[1] <= 0];
        lost = [dead[0] | out[0], dead[1] | out[1]];
        if lost[0] | lost[1] {
            break;
        }
    }
    let pos = pushed.map_or_else(|| [rc(s.cells[0]), rc(s.cells[1])], |(pos, _)| pos);
    finish(state, next, pos, s.hp, lost, dead)
}

/// The end of a legal turn: where both stand and their hp, and who lost in the
/// last slot performed (and whether by hp); blessing and the result.
#[inline(always)]
pub(super) fn finish(
    state: &State,
    mut next: State,
    pos: [Cell; 2],
    hp: [i8; 2],
    lost: [bool; 2],
    dead: [bool; 2],
) -> TurnResult {
    for p in 0..2 {
        next.players[p].pos = pos[p];
        next.players[p].hp = hp[p];
    }
    let outcome = if lost[0] | lost[1] {
        let winner = match lost {
            [true, true] => Winner::Draw,
            [true, false] => Winner::P2,
            _ => Winner::P1,
        };
        let by_hp = (lost[0] & dead[0]) | (lost[1] & dead[1]);
        Outcome::Ended(winner, if by_hp { Reason::Hp } else { Reason::Out })
    } else {
        for p in &mut next.players {
            p.blessing += u8::from(p.pos == state.spring);
        }
        let [b0, b1] = [next.players[0].blessing, next.players[1].blessing];
        let won = [b0 >= WINNING_BLESSING, b1 >= WINNING_BLESSING];
        if won[0] | won[1] {
            let winner = match won {
                [true, true] => Winner::Draw,
                [true, false] => Winner::P1,
                _ => Winner::P2,
            };
            Outcome::Ended(winner, Reason::Blessing)
        } else if state.turn >= LAST_TURN {
            let key = |p: &Player| (p.blessing, p.hp);
            let winner = match key(&next.players[0]).cmp(&key(&next.players[1])) {
                std::cmp::Ordering::Greater => Winner::P1,
                std::cmp::Ordering::Less => Winner::P2,
                std::cmp::Ordering::Equal => Winner::Draw,
            };
            Outcome::Ended(winner, Reason::Turns)
        } else {
            Outcome::Ongoing
        }
    };
    TurnResult { next, outcome }
}
