//! Cherry Blossom Duel, resolved literally: one function per phase of the spec,
//! cells as (row, column) pairs, every area built as a list of cells from the rule
//! text each time it is needed.
//!
//! Uses `lockstep_core::duel` only for the model types (with `Dir::delta`), the
//! `Event` vocabulary and `line_marker` (how a trace digest separates lines);
//! legality, waits, areas, movement, comparison and pushes are all written again
//! here from `docs/guide/src/rules/duel.md`.

// The two players are indexed `p` and `1 - p`, as the rule text speaks of them.
#![allow(clippy::needless_range_loop)]

use crate::{Fuel, Naive, OutOfFuel};
use lockstep_core::digest::Digest;
use lockstep_core::duel::{
    line_marker, Action, Actions, Case, Cell, Dir, Event, Outcome, Phase, Reason, State, Turn,
    TurnResult, Winner, BLOCKED, CANCELLED, EFFECTIVE, HIT, MOVED, OUT,
};
use lockstep_core::Run;

mod areas;

use areas::{break_area, charge_area, guard_area, offset, on_yard, sweep_area, thrust_area};

/// Turns a skill must wait after use (rule text's table).
fn cooldown(code: u8) -> u8 {
    match code {
        2 | 6 => 1,
        3 | 4 | 5 | 7 => 2,
        _ => 0,
    }
}

fn damage(code: u8) -> i8 {
    match code {
        4 => 3,
        2 | 3 | 6 => 2,
        _ => 0,
    }
}

fn push_length(code: u8) -> i8 {
    match code {
        4 => 2,
        3 | 6 => 1,
        _ => 0,
    }
}

fn is_skill(code: u8) -> bool {
    (2..=7).contains(&code)
}

/// Rule 2 of "A turn", point by point.
pub fn is_legal(state: &State, player: usize, actions: &Actions) -> bool {
    let me = &state.players[player];
    for slot in 0..2 {
        let a = actions[slot];
        let allowed: Vec<Dir> = match a.code {
            0 => vec![],
            7 => Dir::ALL.to_vec(),
            _ => vec![Dir::U, Dir::R, Dir::D, Dir::L],
        };
        match a.dir {
            None if !allowed.is_empty() => return false,
            Some(d) if !allowed.contains(&d) => return false,
            _ => {}
        }
        if is_skill(a.code) && me.waits[usize::from(a.code - 2)] != 0 {
            return false;
        }
        if slot == 0 && (a.code == 1 || a.code == 7) {
            let steps = if a.code == 7 { 2 } else { 1 };
            if !on_yard(offset(me.pos, a.dir.unwrap(), steps)) {
                return false;
            }
        }
    }
    !(is_skill(actions[0].code) && actions[0].code == actions[1].code)
}

/// The two players during a slot.
#[derive(Clone, Copy)]
struct World {
    pos: [Cell; 2],
    hp: [i8; 2],
}

struct SlotLog<'a> {
    slot: u8,
    events: &'a mut Vec<Event>,
}

impl SlotLog<'_> {
    fn record(&mut self, phase: Phase, world: &World, flags: [u8; 2]) {
        self.events.push(Event {
            slot: self.slot,
            phase,
            pos: world.pos,
            hp: world.hp,
            flags,
        });
    }
}

/// The movement rules, for the movers' `targets` (`None`: not moving this phase;
/// a target off the yard also counts as not moving). Returns who moved.
fn apply_movement(world: &mut World, targets: [Option<Cell>; 2]) -> [bool; 2] {
    let targets = targets.map(|t| t.filter(|&c| on_yard(c)));
    let mut moves = [false, false];
    match targets {
        [Some(a), Some(b)] => {
            let same = a == b;
            let swap = a == world.pos[1] && b == world.pos[0];
            if !same && !swap {
                moves = [true, true];
            }
        }
        [Some(a), None] => moves[0] = a != world.pos[1],
        [None, Some(b)] => moves[1] = b != world.pos[0],
        [None, None] => {}
    }
    for p in 0..2 {
        if moves[p] {
            world.pos[p] = targets[p].unwrap();
        }
    }
    moves
}

fn flag_if(cond: bool, flag: u8) -> u8 {
    if cond {
        flag
    } else {
        0
    }
}

/// Phase 1.
fn phase_dash(world: &mut World, acts: [Action; 2]) -> [u8; 2] {
    let targets =
        [0, 1].map(|p| (acts[p].code == 7).then(|| offset(world.pos[p], acts[p].dir.unwrap(), 2)));
    apply_movement(world, targets).map(|m| flag_if(m, MOVED))
}

/// Whether `player`'s guard (if it guards in this slot) blocks an attack made by
/// the opponent standing where it stands now.
fn guarded(world: &World, acts: [Action; 2], player: usize) -> bool {
    acts[player].code == 5
        && guard_area(world.pos[player], acts[player].dir.unwrap()).contains(&world.pos[1 - player])
}

/// Phase 2: returns flags, whose thrust hit, and whose move is cancelled.
fn phase_guard_thrust(world: &World, acts: [Action; 2]) -> ([u8; 2], [bool; 2], [bool; 2]) {
    let mut flags = [0, 0];
    let mut hit = [false, false];
    let mut cancelled = [false, false];
    for p in 0..2 {
        if acts[p].code != 2 {
            continue;
        }
        let o = 1 - p;
        let reaches = thrust_area(world.pos[p], acts[p].dir.unwrap()).contains(&world.pos[o]);
        let blocked = reaches && guarded(world, acts, o);
        if reaches && !blocked {
            hit[p] = true;
            flags[p] |= HIT;
            if acts[o].code == 1 {
                cancelled[o] = true;
                flags[o] |= CANCELLED;
            }
        }
        if blocked {
            flags[p] |= BLOCKED;
        }
    }
    (flags, hit, cancelled)
}

/// Phase 3.
fn phase_move_charge(world: &mut World, acts: [Action; 2], cancelled: [bool; 2]) -> [u8; 2] {
    let targets = [0, 1].map(|p| {
        let a = acts[p];
        let moving = (a.code == 1 && !cancelled[p]) || a.code == 4;
        moving.then(|| offset(world.pos[p], a.dir.unwrap(), 1))
    });
    apply_movement(world, targets).map(|m| flag_if(m, MOVED))
}

/// Phase 4.
fn phase_strike(world: &World, acts: [Action; 2]) -> ([u8; 2], [bool; 2]) {
    let mut flags = [0, 0];
    let mut hit = [false, false];
    for p in 0..2 {
        let o = 1 - p;
        let (d, me) = (acts[p].dir, world.pos[p]);
        let (area, can_block) = match acts[p].code {
            3 => (sweep_area(me, d.unwrap()), true),
            4 => (charge_area(me, d.unwrap()), true),
            6 => (break_area(me, d.unwrap()), false),
            _ => continue,
        };
        if area.contains(&world.pos[o]) {
            if can_block && guarded(world, acts, o) {
                flags[p] |= BLOCKED;
            } else {
                hit[p] = true;
                flags[p] |= HIT;
            }
        }
    }
    (flags, hit)
}

/// Phase 5: whose attack takes effect, and whether the damage is cancelled (tie).
fn phase_comparison(acts: [Action; 2], hit: [bool; 2]) -> ([bool; 2], bool) {
    if hit[0] && hit[1] {
        let (d0, d1) = (damage(acts[0].code), damage(acts[1].code));
        if d0 > d1 {
            ([true, false], false)
        } else if d1 > d0 {
            ([false, true], false)
        } else {
            ([true, true], true)
        }
    } else {
        (hit, false)
    }
}

/// Phase 6: returns who is out of the yard.
fn phase_push_damage(
    world: &mut World,
    acts: [Action; 2],
    effective: [bool; 2],
    tie: bool,
) -> [bool; 2] {
    let mut remaining = [0i8; 2];
    let mut way = [Dir::U; 2];
    for attacker in 0..2 {
        if !effective[attacker] {
            continue;
        }
        let victim = 1 - attacker;
        if !tie {
            world.hp[victim] -= damage(acts[attacker].code);
        }
        remaining[victim] = push_length(acts[attacker].code);
        if let Some(d) = acts[attacker].dir {
            way[victim] = d;
        }
    }
    let mut out = [false, false];
    while remaining.iter().any(|&r| r > 0) {
        let mut after = world.pos;
        for p in 0..2 {
            if remaining[p] > 0 {
                after[p] = offset(world.pos[p], way[p], 1);
            }
        }
        if after[0] == after[1] {
            break;
        }
        world.pos = after;
        for p in 0..2 {
            if remaining[p] > 0 {
                remaining[p] -= 1;
                if !on_yard(world.pos[p]) {
                    out[p] = true;
                    remaining[p] = 0;
                }
            }
        }
    }
    out
}

/// One slot: the six phases in order, each recorded.
fn resolve_slot(world: &mut World, acts: [Action; 2], log: &mut SlotLog<'_>) -> [bool; 2] {
    let flags = phase_dash(world, acts);
    log.record(Phase::Dash, world, flags);
    let (flags, thrust_hit, cancelled) = phase_guard_thrust(world, acts);
    log.record(Phase::GuardThrust, world, flags);
    let flags = phase_move_charge(world, acts, cancelled);
    log.record(Phase::MoveCharge, world, flags);
    let (flags, strike_hit) = phase_strike(world, acts);
    log.record(Phase::Strike, world, flags);
    let hit = [
        thrust_hit[0] || strike_hit[0],
        thrust_hit[1] || strike_hit[1],
    ];
    let (effective, tie) = phase_comparison(acts, hit);
    log.record(
        Phase::Comparison,
        world,
        effective.map(|e| flag_if(e, EFFECTIVE)),
    );
    let out = phase_push_damage(world, acts, effective, tie);
    log.record(Phase::PushDamage, world, out.map(|o| flag_if(o, OUT)));
    out
}

/// One turn, with every event of every performed slot appended to `events`.
pub fn resolve_turn(state: &State, actions: &[Actions; 2], events: &mut Vec<Event>) -> TurnResult {
    let mut next = *state;
    next.turn += 1;
    let legal = [
        is_legal(state, 0, &actions[0]),
        is_legal(state, 1, &actions[1]),
    ];
    // Waits: a skill used this turn waits its cooldown; the rest count down.
    for p in 0..2 {
        for s in 0..6 {
            let code = s as u8 + 2;
            let used = legal[0] && legal[1] && actions[p].iter().any(|a| a.code == code);
            next.players[p].waits[s] = if used {
                cooldown(code)
            } else {
                state.players[p].waits[s].saturating_sub(1)
            };
        }
    }
    if !legal[0] || !legal[1] {
        let winner = if legal[0] {
            Winner::P1
        } else if legal[1] {
            Winner::P2
        } else {
            Winner::Draw
        };
        return TurnResult {
            next,
            outcome: Outcome::Ended(winner, Reason::Illegal),
        };
    }

    let mut world = World {
        pos: [state.players[0].pos, state.players[1].pos],
        hp: [state.players[0].hp, state.players[1].hp],
    };
    let mut outcome = Outcome::Ongoing;
    for slot in 0..2 {
        let acts = [actions[0][slot], actions[1][slot]];
        let mut log = SlotLog {
            slot: slot as u8,
            events,
        };
        let out = resolve_slot(&mut world, acts, &mut log);
        // The loss check.
        let low_hp = [world.hp[0] <= 0, world.hp[1] <= 0];
        let loses = [low_hp[0] || out[0], low_hp[1] || out[1]];
        if loses[0] || loses[1] {
            let winner = if loses[0] && loses[1] {
                Winner::Draw
            } else if loses[0] {
                Winner::P2
            } else {
                Winner::P1
            };
            let reason = if (loses[0] && low_hp[0]) || (loses[1] && low_hp[1]) {
                Reason::Hp
            } else {
                Reason::Out
            };
            outcome = Outcome::Ended(winner, reason);
            break;
        }
    }
    for p in 0..2 {
        next.players[p].pos = world.pos[p];
        next.players[p].hp = world.hp[p];
    }
    if outcome != Outcome::Ongoing {
        return TurnResult { next, outcome };
    }

    // Blessing on the spring, then the win checks.
    for p in 0..2 {
        if world.pos[p] == state.spring {
            next.players[p].blessing += 1;
        }
    }
    let reached = [
        next.players[0].blessing >= 10,
        next.players[1].blessing >= 10,
    ];
    if reached[0] && reached[1] {
        outcome = Outcome::Ended(Winner::Draw, Reason::Blessing);
    } else if reached[0] {
        outcome = Outcome::Ended(Winner::P1, Reason::Blessing);
    } else if reached[1] {
        outcome = Outcome::Ended(Winner::P2, Reason::Blessing);
    } else if state.turn == 60 {
        let (a, b) = (&next.players[0], &next.players[1]);
        let winner = if a.blessing != b.blessing {
            if a.blessing > b.blessing {
                Winner::P1
            } else {
                Winner::P2
            }
        } else if a.hp != b.hp {
            if a.hp > b.hp {
                Winner::P1
            } else {
                Winner::P2
            }
        } else {
            Winner::Draw
        };
        outcome = Outcome::Ended(winner, Reason::Turns);
    }
    TurnResult { next, outcome }
}

/// A case being solved line by line: the results and the digest so far.
/// `solve` is a loop over it; a generator that plays a game forward through
/// it (the duel generator does) ends with exactly the run `solve` would give
/// on the lines it made, so the harness need not run the reference again.
#[derive(Debug, Clone, Default)]
pub struct Solving {
    digest: Digest,
    answer: Vec<TurnResult>,
}

impl Solving {
    pub fn new() -> Solving {
        Solving::default()
    }

    /// Resolves the next line, adds its events to the digest, and returns its
    /// result. One unit of fuel; running out changes nothing.
    pub fn resolve(&mut self, turn: &Turn, fuel: &mut Fuel) -> Result<&TurnResult, OutOfFuel> {
        fuel.burn(1)?;
        // A fresh list a line, as plain as the rest of this module.
        let mut events = Vec::new();
        let result = resolve_turn(&turn.state, &turn.actions, &mut events);
        self.digest.push(line_marker(self.answer.len()));
        for e in &events {
            self.digest.push(e.packed());
        }
        self.answer.push(result);
        Ok(self.answer.last().expect("just pushed"))
    }

    /// The results of every line and the digest of every event.
    pub fn finish(self) -> Run<Vec<TurnResult>> {
        Run {
            answer: self.answer,
            digest: self.digest.value(),
        }
    }
}

/// Every line of a case, with a digest of every event (in the same words as the
/// core). One unit of fuel per line.
fn solve(case: &Case, fuel: &mut Fuel) -> Result<Run<Vec<TurnResult>>, OutOfFuel> {
    let mut solving = Solving::new();
    for turn in case {
        solving.resolve(turn, fuel)?;
    }
    Ok(solving.finish())
}

/// Every event of every line, for divergence reports.
pub fn trace(case: &Case) -> Vec<Vec<Event>> {
    case.iter()
        .map(|turn| {
            let mut events = Vec::new();
            resolve_turn(&turn.state, &turn.actions, &mut events);
            events
        })
        .collect()
}

impl Naive for Case {
    fn solve_naively(&self, fuel: &mut Fuel) -> Result<Run<Self::Answer>, OutOfFuel> {
        solve(self, fuel)
    }
}
