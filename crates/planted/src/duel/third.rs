//! A third duel resolver, written once more from the rule text with integer
//! pairs and plain loops, and the deliberately wrong resolvers made from it by
//! planting one bug each: what the planted-bug tests hunt.

// Players are `p` and `1 - p` here as in the rule text.
#![allow(clippy::needless_range_loop)]

use lockstep_core::digest::Digest;
use lockstep_core::duel::{
    self as model, line_marker, Action, Actions, Answer, Case, Cell, Dir, Event, Outcome, Phase,
    Reason, State, TurnResult, Winner, BLOCKED, CANCELLED, EFFECTIVE, HIT, MOVED, OUT,
};
use lockstep_harness::puzzle::Run;

/// The deliberately wrong resolvers, one rule each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bug {
    GuardBlocksBreak,
    ThrustCancelsCharge,
    SwapsAllowed,
    /// Equal damage still deals damage (the comparison only chooses pushes).
    TieStillHurts,
    PushesIgnoreSharedCell,
    /// The contestant-style rule bugs (`CONTESTANT` in `mod.rs`), written
    /// before the levels that find them: the turn limit checked before the
    /// blessing, so a blessing of 10 reached on turn 60 wins on `turns`.
    TurnsBeforeBlessing,
    /// The blessing counted before the loss check of the second slot, so a
    /// player who reaches 10 wins even when a player lost in that slot.
    BlessingBeforeLoss,
    /// "The same skill twice" compared as the same action, direction and
    /// all: a skill used twice in two directions passes as legal.
    SkillTwiceInTwoDirections,
}

/// A third resolver, written once more from the rule text with integer pairs and
/// plain loops, with at most one bug planted. It reports the same events as the
/// real resolvers, so only the planted bug can make it disagree.
fn third_turn(
    state: &State,
    actions: &[Actions; 2],
    bug: Option<Bug>,
    digest: &mut Digest,
) -> TurnResult {
    let mut next = *state;
    next.turn += 1;
    let ok = [0, 1].map(|p| match model::check_legal(state, p, &actions[p]) {
        Err(e)
            if bug == Some(Bug::SkillTwiceInTwoDirections) && e.ends_with("twice in one turn") =>
        {
            actions[p][0].dir != actions[p][1].dir
        }
        legal => legal.is_ok(),
    });
    if !ok[0] || !ok[1] {
        for p in &mut next.players {
            p.waits = model::next_waits(&p.waits, None);
        }
        let w = if ok[0] {
            Winner::P1
        } else if ok[1] {
            Winner::P2
        } else {
            Winner::Draw
        };
        return TurnResult {
            next,
            outcome: Outcome::Ended(w, Reason::Illegal),
        };
    }
    for p in 0..2 {
        next.players[p].waits = model::next_waits(&state.players[p].waits, Some(&actions[p]));
    }
    let mut pos = [state.players[0].pos, state.players[1].pos];
    let mut hp = [state.players[0].hp, state.players[1].hp];
    let mut outcome = Outcome::Ongoing;
    for slot in 0..2u8 {
        let a = [actions[0][slot as usize], actions[1][slot as usize]];
        let mut emit = |phase, pos: [Cell; 2], hp: [i8; 2], flags: [u8; 2]| {
            digest.push(
                Event {
                    slot,
                    phase,
                    pos,
                    hp,
                    flags,
                }
                .packed(),
            );
        };
        if let Some(ended) = third_slot(a, &mut pos, &mut hp, bug, &mut emit) {
            outcome = ended;
            if slot == 1 && bug == Some(Bug::BlessingBeforeLoss) {
                let mut blessed = next;
                blessed.players[0].pos = pos[0];
                blessed.players[1].pos = pos[1];
                if let Outcome::Ended(w, Reason::Blessing) =
                    after_both_slots(state, &mut blessed, None)
                {
                    next.players[0].blessing = blessed.players[0].blessing;
                    next.players[1].blessing = blessed.players[1].blessing;
                    outcome = Outcome::Ended(w, Reason::Blessing);
                }
            }
            break;
        }
    }
    for p in 0..2 {
        next.players[p].pos = pos[p];
        next.players[p].hp = hp[p];
    }
    if outcome == Outcome::Ongoing {
        outcome = after_both_slots(state, &mut next, bug);
    }
    TurnResult { next, outcome }
}

/// What one event reports: its phase, the cells, the health and the flags.
type Emit<'a> = dyn FnMut(Phase, [Cell; 2], [i8; 2], [u8; 2]) + 'a;

/// One slot of both players' actions `a`, phase by phase, each phase's
/// event emitted; the game's end when it ends in this slot.
fn third_slot(
    a: [Action; 2],
    pos: &mut [Cell; 2],
    hp: &mut [i8; 2],
    bug: Option<Bug>,
    emit: &mut Emit<'_>,
) -> Option<Outcome> {
    let t = [0, 1].map(|p| (a[p].code == 7).then(|| add(pos[p], a[p].dir.unwrap(), 2)));
    let f = movement(pos, t, bug);
    emit(Phase::Dash, *pos, *hp, f);
    let (mut hit, flags, cancel) = thrusts(a, *pos, bug);
    emit(Phase::GuardThrust, *pos, *hp, flags);
    let t = [0, 1].map(|p| {
        ((a[p].code == 1 || a[p].code == 4) && !cancel[p])
            .then(|| add(pos[p], a[p].dir.unwrap(), 1))
    });
    let f = movement(pos, t, bug);
    emit(Phase::MoveCharge, *pos, *hp, f);
    let mut flags = [0u8; 2];
    for p in 0..2 {
        let code = a[p].code;
        if matches!(code, 3 | 4 | 6) && area(code, pos[p], a[p].dir.unwrap()).contains(&pos[1 - p])
        {
            if guards(a, *pos, 1 - p, code, bug) {
                flags[p] |= BLOCKED;
            } else {
                hit[p] = true;
                flags[p] |= HIT;
            }
        }
    }
    emit(Phase::Strike, *pos, *hp, flags);
    let dmg = |p: usize| [0, 0, 2, 2, 3, 0, 2, 0][a[p].code as usize] as i8;
    let eff = if hit[0] && hit[1] {
        [dmg(0) >= dmg(1), dmg(1) >= dmg(0)]
    } else {
        hit
    };
    emit(
        Phase::Comparison,
        *pos,
        *hp,
        eff.map(|e| if e { EFFECTIVE } else { 0 }),
    );
    let tie = eff[0] && eff[1] && bug != Some(Bug::TieStillHurts);
    let mut left = [0i8; 2];
    for p in 0..2 {
        if eff[p] {
            if !tie {
                hp[1 - p] -= dmg(p);
            }
            left[1 - p] = [0, 0, 0, 1, 2, 0, 1, 0][a[p].code as usize];
        }
    }
    pushes(a, pos, left, bug);
    let out = pos.map(|c| !model::inside(c));
    emit(
        Phase::PushDamage,
        *pos,
        *hp,
        out.map(|o| if o { OUT } else { 0 }),
    );
    let lost = [hp[0] <= 0 || out[0], hp[1] <= 0 || out[1]];
    if !(lost[0] || lost[1]) {
        return None;
    }
    let w = match lost {
        [true, true] => Winner::Draw,
        [true, false] => Winner::P2,
        _ => Winner::P1,
    };
    let r = if (lost[0] && hp[0] <= 0) || (lost[1] && hp[1] <= 0) {
        Reason::Hp
    } else {
        Reason::Out
    };
    Some(Outcome::Ended(w, r))
}

/// `k` steps from `c` in direction `d`.
fn add(c: Cell, d: Dir, k: i8) -> Cell {
    (c.0 + k * d.delta().0, c.1 + k * d.delta().1)
}

/// The cells on the board that action `code` reaches from `at` facing `d`.
fn area(code: u8, at: Cell, d: Dir) -> Vec<Cell> {
    let (dr, dc) = d.delta();
    let f1 = (at.0 + dr, at.1 + dc);
    let (lr, lc) = (-dc, dr);
    let row = vec![f1, (f1.0 + lr, f1.1 + lc), (f1.0 - lr, f1.1 - lc)];
    let cells = match code {
        2 | 4 => vec![f1, add(at, d, 2)],
        3 => [row, vec![(at.0 + lr, at.1 + lc), (at.0 - lr, at.1 - lc)]].concat(),
        6 => vec![f1],
        5 => [row, vec![add(at, d, 2)]].concat(),
        _ => vec![],
    };
    cells.into_iter().filter(|&c| model::inside(c)).collect()
}

/// Both players' moves toward `t` at once: the flags of who moved.
fn movement(pos: &mut [Cell; 2], t: [Option<Cell>; 2], bug: Option<Bug>) -> [u8; 2] {
    let t = t.map(|t| t.filter(|&c| model::inside(c)));
    let go = match t {
        [Some(x), Some(y)] => {
            let swap = x == pos[1] && y == pos[0] && bug != Some(Bug::SwapsAllowed);
            let ok = x != y && !swap;
            [ok, ok]
        }
        [x, y] => [
            x.is_some_and(|x| x != pos[1]),
            y.is_some_and(|y| y != pos[0]),
        ],
    };
    for p in 0..2 {
        if go[p] {
            pos[p] = t[p].unwrap();
        }
    }
    go.map(|g| if g { MOVED } else { 0 })
}

/// Whether `victim`'s guard blocks an attack of `code` on it.
fn guards(a: [Action; 2], pos: [Cell; 2], victim: usize, code: u8, bug: Option<Bug>) -> bool {
    let g = a[victim];
    g.code == 5
        && (code != 6 || bug == Some(Bug::GuardBlocksBreak))
        && area(5, pos[victim], g.dir.unwrap()).contains(&pos[1 - victim])
}

/// The thrusts: who hit, the phase's flags, and whose move they cancel.
fn thrusts(a: [Action; 2], pos: [Cell; 2], bug: Option<Bug>) -> ([bool; 2], [u8; 2], [bool; 2]) {
    let mut hit = [false; 2];
    let mut flags = [0u8; 2];
    let mut cancel = [false; 2];
    for p in 0..2 {
        if a[p].code == 2 && area(2, pos[p], a[p].dir.unwrap()).contains(&pos[1 - p]) {
            if guards(a, pos, 1 - p, 2, bug) {
                flags[p] |= BLOCKED;
            } else {
                hit[p] = true;
                flags[p] |= HIT;
                let victim = a[1 - p].code;
                if victim == 1 || (victim == 4 && bug == Some(Bug::ThrustCancelsCharge)) {
                    cancel[1 - p] = true;
                    if victim == 1 {
                        flags[1 - p] |= CANCELLED;
                    }
                }
            }
        }
    }
    (hit, flags, cancel)
}

/// The pushes, `left` cells of each, a cell at a time and both at once,
/// stopped by a shared cell and by the edge.
fn pushes(a: [Action; 2], pos: &mut [Cell; 2], mut left: [i8; 2], bug: Option<Bug>) {
    while left != [0, 0] {
        let mut n = *pos;
        for p in 0..2 {
            if left[p] > 0 {
                n[p] = add(pos[p], a[1 - p].dir.unwrap(), 1);
            }
        }
        if n[0] == n[1] && bug != Some(Bug::PushesIgnoreSharedCell) {
            break;
        }
        *pos = n;
        for p in 0..2 {
            if left[p] > 0 {
                left[p] = if model::inside(pos[p]) {
                    left[p] - 1
                } else {
                    0
                };
            }
        }
    }
}

/// After both slots of a turn no one lost: the spring's blessings, then
/// the end of the 60th turn.
fn after_both_slots(state: &State, next: &mut State, bug: Option<Bug>) -> Outcome {
    for p in 0..2 {
        next.players[p].blessing += u8::from(next.players[p].pos == state.spring);
    }
    let b = [
        next.players[0].blessing >= 10,
        next.players[1].blessing >= 10,
    ];
    let turns = || {
        let k = |p: usize| (next.players[p].blessing, next.players[p].hp);
        let w = match k(0).cmp(&k(1)) {
            std::cmp::Ordering::Greater => Winner::P1,
            std::cmp::Ordering::Less => Winner::P2,
            _ => Winner::Draw,
        };
        Outcome::Ended(w, Reason::Turns)
    };
    match b {
        _ if bug == Some(Bug::TurnsBeforeBlessing) && state.turn == 60 => turns(),
        [true, true] => Outcome::Ended(Winner::Draw, Reason::Blessing),
        [true, false] => Outcome::Ended(Winner::P1, Reason::Blessing),
        [false, true] => Outcome::Ended(Winner::P2, Reason::Blessing),
        _ if state.turn == 60 => turns(),
        _ => Outcome::Ongoing,
    }
}

pub fn third(case: &Case, bug: Option<Bug>) -> Run<Answer> {
    let mut digest = Digest::new();
    let answer = case
        .iter()
        .enumerate()
        .map(|(i, t)| {
            digest.push(line_marker(i));
            third_turn(&t.state, &t.actions, bug, &mut digest)
        })
        .collect();
    Run {
        answer,
        digest: digest.value(),
    }
}

pub fn guard_blocks_break(case: &Case) -> Run<Answer> {
    third(case, Some(Bug::GuardBlocksBreak))
}
pub fn thrust_cancels_charge(case: &Case) -> Run<Answer> {
    third(case, Some(Bug::ThrustCancelsCharge))
}
pub fn swaps_allowed(case: &Case) -> Run<Answer> {
    third(case, Some(Bug::SwapsAllowed))
}
pub fn tie_still_hurts(case: &Case) -> Run<Answer> {
    third(case, Some(Bug::TieStillHurts))
}
pub fn pushes_ignore_shared_cell(case: &Case) -> Run<Answer> {
    third(case, Some(Bug::PushesIgnoreSharedCell))
}
pub fn turns_before_blessing(case: &Case) -> Run<Answer> {
    third(case, Some(Bug::TurnsBeforeBlessing))
}
pub fn blessing_before_loss(case: &Case) -> Run<Answer> {
    third(case, Some(Bug::BlessingBeforeLoss))
}
pub fn skill_twice_in_two_directions(case: &Case) -> Run<Answer> {
    third(case, Some(Bug::SkillTwiceInTwoDirections))
}
