//! Cherry Blossom Duel in the harness: generator, shrinker, divergence report and
//! rule-branch stats over `duel step` lines.
//!
//! A case is a list of step lines, each resolved on its own. The generator makes
//! two kinds: a few hand-shaped states (players close together, near the edges and
//! the spring, every wait pattern, low hp, high blessing, turn 60) with action
//! lists that are mostly legal and aimed at the opponent; and whole games between
//! random players, one line per turn, so that states a real game reaches are
//! covered and compared turn by turn. `explain` names the first phase of the first
//! line where the two resolvers' per-phase events differ.
//!
//! Step lines contain `|`, so duel's corpus writes line breaks as `;`
//! ([`Puzzle::CORPUS_LINE_BREAK`]).

use crate::puzzle::{Explanation, Puzzle, Run};
use arbitrary::Unstructured;
use lockstep_core::duel::{
    self as model, Action, Actions, Answer, Case, Cell, Dir, Event, Outcome, Phase, Player, Reason,
    Recorder, State, Turn, Winner, BLOCKED, CANCELLED, CHARGE, COOLDOWN, DASH, EFFECTIVE, HIT,
    LAST_TURN, MOVE, MOVED, OUT, SIZE, START_HP, WINNING_BLESSING,
};
use lockstep_core::input::InputError;
use lockstep_reference::{Fuel, OutOfFuel};

pub struct Duel;

fn any_cell(u: &mut Unstructured<'_>) -> arbitrary::Result<Cell> {
    Ok((u.int_in_range(1..=SIZE)?, u.int_in_range(1..=SIZE)?))
}

/// A cell within `radius` of `centre`, clamped to the yard.
fn near(u: &mut Unstructured<'_>, centre: Cell, radius: i8) -> arbitrary::Result<Cell> {
    let dr = u.int_in_range(-radius..=radius)?;
    let dc = u.int_in_range(-radius..=radius)?;
    Ok((
        (centre.0 + dr).clamp(1, SIZE),
        (centre.1 + dc).clamp(1, SIZE),
    ))
}

fn edge_cell(u: &mut Unstructured<'_>) -> arbitrary::Result<Cell> {
    let along = u.int_in_range(1..=SIZE)?;
    let side = if u.ratio(1, 2)? { 1 } else { SIZE };
    Ok(if u.ratio(1, 2)? {
        (side, along)
    } else {
        (along, side)
    })
}

fn generate_player(u: &mut Unstructured<'_>, pos: Cell) -> arbitrary::Result<Player> {
    let hp = match u.int_in_range(0..=3u8)? {
        0 => u.int_in_range(1..=3)?,
        1 => u.int_in_range(1..=START_HP)?,
        _ => START_HP,
    };
    let blessing = match u.int_in_range(0..=3u8)? {
        0 => u.int_in_range(7..=WINNING_BLESSING - 1)?,
        1 => u.int_in_range(0..=WINNING_BLESSING - 1)?,
        _ => 0,
    };
    let mut waits = [0u8; 6];
    match u.int_in_range(0..=3u8)? {
        // Every skill usable: the most interesting turns.
        0 | 1 => {}
        // Any wait pattern.
        2 => {
            for (s, w) in waits.iter_mut().enumerate() {
                *w = u.int_in_range(0..=COOLDOWN[s + 2])?;
            }
        }
        // Everything waiting: only wait and move are left.
        _ => {
            for (s, w) in waits.iter_mut().enumerate() {
                *w = COOLDOWN[s + 2];
            }
        }
    }
    Ok(Player {
        pos,
        hp,
        blessing,
        waits,
    })
}

pub(crate) fn generate_state(u: &mut Unstructured<'_>) -> arbitrary::Result<State> {
    let p1 = match u.int_in_range(0..=2u8)? {
        0 => edge_cell(u)?,
        _ => any_cell(u)?,
    };
    let mut p2 = match u.int_in_range(0..=3u8)? {
        0 => near(u, p1, 1)?,
        1 => near(u, p1, 2)?,
        2 => near(u, p1, 3)?,
        _ => any_cell(u)?,
    };
    if p2 == p1 {
        // Next cell in row-major order, wrapping.
        let i = ((p1.0 - 1) * SIZE + p1.1) % (SIZE * SIZE);
        p2 = (i / SIZE + 1, i % SIZE + 1);
    }
    let spring = match u.int_in_range(0..=3u8)? {
        0 => near(u, p1, 1)?,
        1 => near(u, p2, 1)?,
        _ => any_cell(u)?,
    };
    let turn = match u.int_in_range(0..=5u8)? {
        0 => LAST_TURN,
        1 => 1,
        _ => u.int_in_range(1..=LAST_TURN)?,
    };
    Ok(State {
        turn,
        spring,
        players: [generate_player(u, p1)?, generate_player(u, p2)?],
    })
}

/// The straight direction that best points from `from` toward `to` (rows
/// first on a tie); the built-in bots' plans aim with it too.
pub(crate) fn toward(from: Cell, to: Cell) -> Dir {
    let (dr, dc) = (to.0 - from.0, to.1 - from.1);
    if dr.abs() >= dc.abs() {
        if dr < 0 {
            Dir::U
        } else {
            Dir::D
        }
    } else if dc < 0 {
        Dir::L
    } else {
        Dir::R
    }
}

/// An action aimed at the opponent more often than not; may be illegal. The
/// code is, three times in four, one of `player`'s usable ones (wait, move and
/// the skills whose wait is 0): with a uniform code, a player whose skills all
/// waited drew a legal pair one time in sixteen, and the generator fell back to
/// listing every legal pair, which cost more than the check.
fn raw_action(u: &mut Unstructured<'_>, player: &Player, other: Cell) -> arbitrary::Result<Action> {
    let me = player.pos;
    let code = if u.ratio(3, 4)? {
        let mut usable = [0u8; 8];
        let mut n = 0;
        for code in 0..=DASH {
            if code < 2 || player.waits[usize::from(code) - 2] == 0 {
                usable[n] = code;
                n += 1;
            }
        }
        *u.choose(&usable[..n])?
    } else {
        u.int_in_range(0..=DASH)?
    };
    if code == 0 {
        return Ok(Action::WAIT);
    }
    let dir = match u.int_in_range(0..=9u8)? {
        0..=4 => toward(me, other),
        5..=8 => *u.choose(&Dir::STRAIGHT)?,
        _ => *u.choose(&Dir::ALL)?,
    };
    Ok(Action::new(code, dir))
}

/// Mostly legal action lists; about one in twenty anything at all.
fn generate_actions(
    u: &mut Unstructured<'_>,
    state: &State,
    player: usize,
    lists: &mut Vec<Actions>,
) -> arbitrary::Result<Actions> {
    let (me, other) = (&state.players[player], state.players[1 - player].pos);
    if u.ratio(1, 20)? {
        // Anything that parses: a wrong direction, a missing one, a waiting skill.
        let any = |u: &mut Unstructured<'_>| -> arbitrary::Result<Action> {
            let code = u.int_in_range(0..=DASH)?;
            let dir = if u.ratio(1, 8)? {
                None
            } else {
                Some(*u.choose(&Dir::ALL)?)
            };
            Ok(Action { code, dir })
        };
        return Ok([any(u)?, any(u)?]);
    }
    for _ in 0..6 {
        let actions = [raw_action(u, me, other)?, raw_action(u, me, other)?];
        // The reference says what is legal (a bool, no message to format).
        if lockstep_reference::duel::is_legal(state, player, &actions) {
            return Ok(actions);
        }
    }
    // The reference's brute-force list, not core's enumeration (see
    // `generate_game`); rare since the codes are drawn among the usable ones.
    *lists = lockstep_reference::duel_search::legal_lists(state, player);
    Ok(*u.choose(lists)?)
}

/// A game between random players from a random start, one line per turn, until
/// it ends or the bytes do. The reference plays the game forward: a bug in the
/// core under test must not steer which states get generated.
fn generate_game(u: &mut Unstructured<'_>, lists: &mut Vec<Actions>) -> arbitrary::Result<Case> {
    let p1 = any_cell(u)?;
    let radius = u.int_in_range(1..=6)?;
    let mut p2 = near(u, p1, radius)?;
    if p2 == p1 {
        p2 = (if p1.0 > 1 { p1.0 - 1 } else { 2 }, p1.1);
    }
    let spring = any_cell(u)?;
    let mut state = State::initial(spring, p1, p2);
    let mut case = Vec::new();
    let mut events = Vec::new();
    loop {
        let actions = [
            generate_actions(u, &state, 0, lists)?,
            generate_actions(u, &state, 1, lists)?,
        ];
        case.push(Turn { state, actions });
        events.clear();
        let result = lockstep_reference::duel::resolve_turn(&state, &actions, &mut events);
        if result.outcome != Outcome::Ongoing || u.is_empty() {
            return Ok(case);
        }
        state = result.next;
    }
}

fn generate_case(u: &mut Unstructured<'_>) -> arbitrary::Result<Case> {
    // Filled only when six drawn pairs were all illegal (rare): no allocation
    // for most cases.
    let mut lists = Vec::new();
    if u.ratio(1, 5)? {
        return generate_game(u, &mut lists);
    }
    let lines = u.int_in_range(1..=4)?;
    (0..lines)
        .map(|_| {
            let state = generate_state(u)?;
            let actions = [
                generate_actions(u, &state, 0, &mut lists)?,
                generate_actions(u, &state, 1, &mut lists)?,
            ];
            Ok(Turn { state, actions })
        })
        .collect()
}

fn chebyshev(a: Cell, b: Cell) -> i8 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

fn step_toward(from: Cell, to: Cell) -> Cell {
    (
        from.0 + (to.0 - from.0).signum(),
        from.1 + (to.1 - from.1).signum(),
    )
}

/// Simpler variants of one line: each lowers (waits, 10 - hp, blessing, turn,
/// distance between players, spring's distance from (1,1), non-wait actions), so
/// shrinking ends.
pub(crate) fn simpler_turns(turn: &Turn) -> Vec<Turn> {
    let mut out = Vec::new();
    // Actions toward wait first: they shrink the scenario the most.
    for p in 0..2 {
        for slot in 0..2 {
            let mut t = *turn;
            t.actions[p][slot] = Action::WAIT;
            if t != *turn {
                out.push(t);
            }
        }
    }
    // A first-slot move or dash absorbed into the state: the player starts
    // where it would have landed and waits instead. Replacing the action by a
    // wait alone, or moving the player alone, can each lose the failure (the
    // other player's guard then faces the wrong cell), so shrinking stopped at
    // a dash that only set up the position.
    for p in 0..2 {
        let a = turn.actions[p][0];
        let steps = match a.code {
            MOVE => 1,
            DASH => 2,
            _ => continue,
        };
        let Some(d) = a.dir else { continue };
        let (dr, dc) = d.delta();
        let from = turn.state.players[p].pos;
        let to = (from.0 + steps * dr, from.1 + steps * dc);
        if model::inside(to) && to != turn.state.players[1 - p].pos {
            let mut t = *turn;
            t.state.players[p].pos = to;
            t.actions[p][0] = Action::WAIT;
            out.push(t);
        }
    }
    out.extend(
        simpler_states(&turn.state)
            .into_iter()
            .map(|state| Turn { state, ..*turn }),
    );
    out
}

/// Simpler valid states than `state`, one change each: waits to 0, hp to 10 or
/// up by one, blessing to 0 or down by one, a player one step toward the other,
/// turn toward 1, spring toward (1, 1).
pub(crate) fn simpler_states(state: &State) -> Vec<State> {
    let mut out = Vec::new();
    let mut with = |f: &dyn Fn(&mut State)| {
        let mut s = *state;
        f(&mut s);
        if s != *state && s.validate().is_ok() {
            out.push(s);
        }
    };
    for p in 0..2 {
        with(&|s| s.players[p].waits = [0; 6]);
        for w in 0..6 {
            with(&|s| s.players[p].waits[w] = 0);
        }
        with(&|s| s.players[p].hp = START_HP);
        with(&|s| s.players[p].blessing = 0);
        with(&|s| {
            let pl = &mut s.players[p];
            pl.hp = (pl.hp + 1).min(START_HP);
        });
        with(&|s| {
            let pl = &mut s.players[p];
            pl.blessing = pl.blessing.saturating_sub(1);
        });
        // Toward the other player, as long as they stay apart.
        with(&|s| {
            let other = s.players[1 - p].pos;
            let me = s.players[p].pos;
            if chebyshev(me, other) > 1 {
                s.players[p].pos = step_toward(me, other);
            }
        });
    }
    with(&|s| s.turn = 1);
    with(&|s| s.turn = s.turn.saturating_sub(1).max(1));
    with(&|s| s.spring = step_toward(s.spring, (1, 1)));
    out
}

fn shrink_candidates(case: &Case) -> Vec<Case> {
    let mut out = crate::shrink::fewer_parts(case);
    for (i, turn) in case.iter().enumerate() {
        for simpler in simpler_turns(turn) {
            let mut next = case.clone();
            next[i] = simpler;
            out.push(next);
        }
    }
    out
}

fn core_events(turn: &Turn) -> (model::TurnResult, Vec<Event>) {
    let mut recorder = Recorder::default();
    let result = model::resolve_traced(&turn.state, &turn.actions, &mut recorder);
    (result, recorder.0)
}

/// The first line, then the first event, where the two resolvers part. The
/// core's answers come from its slot table and its events from its slot code
/// (`model::resolve`), so a line where those two part is named as such.
fn explain(case: &Case) -> Explanation {
    for (i, turn) in case.iter().enumerate() {
        let (core, core_events) = core_events(turn);
        let table = model::resolve_turn(&turn.state, &turn.actions);
        if table != core {
            return Explanation {
                symptom: format!("line-{}-table", i + 1),
                report: format!(
                    "line {}: {}\n  core, slot table: {}\n  core, slot code:  {}\n",
                    i + 1,
                    model::write_turn(turn),
                    model::write_result(&table),
                    model::write_result(&core)
                ),
            };
        }
        let mut reference_events = Vec::new();
        let reference = lockstep_reference::duel::resolve_turn(
            &turn.state,
            &turn.actions,
            &mut reference_events,
        );
        if core == reference && core_events == reference_events {
            continue;
        }
        let mut report = format!(
            "line {}: {}\n  core:      {}\n  reference: {}\n",
            i + 1,
            model::write_turn(turn),
            model::write_result(&core),
            model::write_result(&reference)
        );
        let first = core_events
            .iter()
            .zip(&reference_events)
            .position(|(c, r)| c != r);
        let symptom = match first {
            Some(k) => {
                let (c, r) = (core_events[k], reference_events[k]);
                report.push_str(&format!(
                    "first differing phase: slot {} phase {}\n  core:      {c}\n  reference: {r}\n",
                    c.slot + 1,
                    c.phase.name()
                ));
                if k > 0 {
                    report.push_str(&format!("  before it: {}\n", core_events[k - 1]));
                }
                format!("line-{}-slot-{}-{}", i + 1, c.slot + 1, c.phase.slug())
            }
            None if core_events.len() != reference_events.len() => {
                report.push_str(&format!(
                    "same events as far as both go; core has {}, reference {}\n",
                    core_events.len(),
                    reference_events.len()
                ));
                format!("line-{}-event-count", i + 1)
            }
            None => {
                report.push_str("same events; the results differ\n");
                format!("line-{}-result", i + 1)
            }
        };
        return Explanation { symptom, report };
    }
    Explanation {
        symptom: "same-lines-different-digest".to_string(),
        report: "every line has the same result and events on both sides\n".to_string(),
    }
}

/// Rule branches for `--stats` and the generator-reach test.
pub const FEATURES: [&str; 20] = [
    "dash moved",
    "dash blocked",
    "guard blocked an attack",
    "thrust hit",
    "thrust cancelled a move",
    "move blocked",
    "charge moved",
    "charge blocked",
    "sweep hit",
    "charge hit",
    "break hit",
    "comparison tie",
    "comparison: larger attack only",
    "push stopped short (shared cell)",
    "pushed out",
    "won on hp",
    "won by push out",
    "won on blessing",
    "decided after turn 60",
    "illegal action list",
];

/// Which [`FEATURES`] one line goes through, from the core's events.
fn turn_features(turn: &Turn) -> u64 {
    let (result, events) = core_events(turn);
    let mut bits = 0u64;
    let mut set = |i: usize| bits |= 1 << i;
    let mut before = [turn.state.players[0].pos, turn.state.players[1].pos];
    let mut hits = [false; 2];
    for e in &events {
        let acts = [
            turn.actions[0][e.slot as usize],
            turn.actions[1][e.slot as usize],
        ];
        for p in 0..2 {
            let (code, f) = (acts[p].code, e.flags[p]);
            match e.phase {
                Phase::Dash if code == DASH => set(if f & MOVED != 0 { 0 } else { 1 }),
                Phase::GuardThrust => {
                    if f & BLOCKED != 0 {
                        set(2);
                    }
                    if f & HIT != 0 {
                        set(3);
                    }
                    if f & CANCELLED != 0 {
                        set(4);
                    }
                }
                Phase::MoveCharge => {
                    let target = acts[p].dir.map(|d| {
                        let (dr, dc) = d.delta();
                        (before[p].0 + dr, before[p].1 + dc)
                    });
                    let could = target.is_some_and(model::inside);
                    if code == MOVE
                        && could
                        && f & MOVED == 0
                        && events.iter().all(|x| {
                            x.slot != e.slot
                                || x.phase != Phase::GuardThrust
                                || x.flags[p] & CANCELLED == 0
                        })
                    {
                        set(5);
                    }
                    if code == CHARGE {
                        set(if f & MOVED != 0 { 6 } else { 7 });
                    }
                }
                Phase::Strike => {
                    if f & BLOCKED != 0 {
                        set(2);
                    }
                    if f & HIT != 0 {
                        set(match code {
                            3 => 8,
                            CHARGE => 9,
                            _ => 10,
                        });
                    }
                }
                _ => {}
            }
            if e.phase == Phase::GuardThrust || e.phase == Phase::Strike {
                hits[p] |= f & HIT != 0;
            }
        }
        match e.phase {
            Phase::Comparison => {
                let eff = [e.flags[0] & EFFECTIVE != 0, e.flags[1] & EFFECTIVE != 0];
                if eff[0] && eff[1] {
                    set(11);
                } else if hits[0] && hits[1] {
                    set(12);
                }
                // Push lengths against each player, for the next event.
                before = e.pos;
                for p in 0..2 {
                    let o = 1 - p;
                    let push = match acts[p].code {
                        CHARGE => 2,
                        3 | 6 => 1,
                        _ => 0,
                    };
                    if eff[p] && push > 0 {
                        // Checked against the push-damage event below.
                        let after = events
                            .iter()
                            .find(|x| x.slot == e.slot && x.phase == Phase::PushDamage)
                            .map(|x| (x.pos[o], x.flags[o] & OUT != 0));
                        if let Some((to, out)) = after {
                            if !out && chebyshev(before[o], to) < push {
                                set(13);
                            }
                        }
                    }
                }
            }
            Phase::PushDamage => {
                if e.flags.iter().any(|f| f & OUT != 0) {
                    set(14);
                }
                hits = [false; 2];
            }
            _ => {}
        }
        before = e.pos;
    }
    match result.outcome {
        Outcome::Ended(w, reason) if w != Winner::Draw || reason == Reason::Illegal => {
            set(match reason {
                Reason::Hp => 15,
                Reason::Out => 16,
                Reason::Blessing => 17,
                Reason::Turns => 18,
                Reason::Illegal => 19,
            })
        }
        Outcome::Ended(_, Reason::Turns) => set(18),
        _ => {}
    }
    bits
}

impl Puzzle for Duel {
    const NAME: &'static str = "duel";
    const MODULE: &'static str = "duel";
    /// One unit a line; generated games have at most 60 lines.
    const FUEL: u64 = 10_000;
    const CORPUS_LINE_BREAK: char = ';';
    const PLAYED_THROUGH_REFEREE: bool = true;
    const FEATURES: &'static [&'static str] = &FEATURES;

    type Case = Case;
    type Answer = Answer;

    fn generate(u: &mut Unstructured<'_>) -> arbitrary::Result<Case> {
        generate_case(u)
    }

    fn parse_input(text: &str) -> Result<Case, InputError> {
        model::parse(text)
    }

    fn write_input(case: &Case) -> String {
        model::write_input(case)
    }

    fn write_answer(answer: &Answer) -> String {
        model::write_answer(answer)
    }

    fn describe(case: &Case) -> String {
        let actions = case
            .iter()
            .flat_map(|t| t.actions.iter().flatten())
            .filter(|a| a.code != 0)
            .count();
        format!(
            "{} line{}, {actions} non-wait actions",
            case.len(),
            if case.len() == 1 { "" } else { "s" }
        )
    }

    fn core(case: &Case) -> Run<Answer> {
        let (answer, digest) = model::resolve(case);
        Run { answer, digest }
    }

    fn reference(case: &Case, fuel: &mut Fuel) -> Result<Run<Answer>, OutOfFuel> {
        let (answer, digest) = lockstep_reference::duel::solve(case, fuel)?;
        Ok(Run { answer, digest })
    }

    fn explain(case: &Case) -> Explanation {
        explain(case)
    }

    fn shrink_candidates(case: &Case) -> Vec<Case> {
        shrink_candidates(case)
    }

    fn features(case: &Case) -> u64 {
        case.iter().fold(0, |bits, turn| bits | turn_features(turn))
    }
}
