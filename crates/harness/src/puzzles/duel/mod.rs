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
//! (the list's `semicolons` flag, [`crate::corpus::line_break`]).

pub mod bench;
mod branches;
pub mod levels;
mod packed;
mod trace;

use crate::duel_states::simpler_states;
use crate::puzzle::{CaseLimits, Explanation, Generated, Puzzle, ReferenceRun};
use arbitrary::Unstructured;
use lockstep_core::duel::{
    self as model, Action, Actions, Answer, Case, Cell, Dir, Event, Outcome, Phase, Player, Reason,
    Recorder, Sink, State, Turn, Winner, BLOCKED, CANCELLED, CHARGE, DASH, EFFECTIVE, HIT,
    LAST_TURN, MOVE, MOVED, OUT, SWEEP,
};
use lockstep_reference::Fuel;

pub struct Duel;

mod generate;
mod signature;

use branches::*;
use generate::*;

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

/// The core's result and traced events on one line, for `explain`.
fn core_events(turn: &Turn) -> (model::TurnResult, Vec<Event>) {
    // A turn's events fit in this (two slots of six phases each).
    let mut recorder = Recorder(Vec::with_capacity(16));
    let result = model::resolve_traced(&turn.state, &turn.actions, &mut recorder);
    (result, recorder.0)
}

/// Rule branches for `--stats` and the generator-reach test.
pub const RULE_BRANCHES: [&str; 24] = [
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
    "pushed out",
    "won on hp",
    "won by push out",
    "won on blessing",
    "decided after turn 60",
    "illegal action list",
    "a skill chosen while still cooling down",
    "won on blessing on turn 60",
    "a loss on turn 60",
    "a loss in the second slot with a blessing of 10 due",
    "illegal on turn 60",
];

/// The first `count` states the duel generator reaches under `seed` (job
/// 0): every line's state of its cases in order. What the bots' tests and
/// the search's properties run on.
pub fn generated_states(seed: u64, count: usize) -> Vec<model::State> {
    let mut buf = vec![0u8; lockstep_search::seeds::CASE_BYTES];
    let mut out = Vec::new();
    let mut index = 0;
    while out.len() < count {
        if let Some(case) = crate::generate::generate_case::<Duel>(seed, 0, index, &mut buf) {
            out.extend(case.iter().map(|t| t.state));
        }
        index += 1;
    }
    out.truncate(count);
    out
}

impl Puzzle for Duel {
    /// One unit a line; generated games have at most 60 lines.
    const FUEL: u64 = 10_000;
    const RULE_BRANCHES: &'static [&'static str] = &RULE_BRANCHES;

    type Case = Case;
    type Answer = Answer;

    /// Games played forward through the reference, whose result comes along.
    fn generate(u: &mut Unstructured<'_>, _limits: CaseLimits) -> Generated<Self> {
        generate_case(u)
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

    /// The first line, then the first event, where the two resolvers part. The
    /// core's answers come from its slot table and its events from its slot code
    /// (`Model::solve`), so a line where those two part is named as such.
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

    fn rule_branches(case: &Case) -> u64 {
        case.iter().fold(0, |bits, turn| bits | turn_branches(turn))
    }

    fn signature(answers: crate::puzzle::Answers<'_, Self>) -> String {
        signature::duel_signature(
            answers.case,
            answers.core,
            answers.reference,
            answers.solver,
        )
    }

    /// `lockstep verify`'s levels (the rule page's "Sizes").
    const LEVELS: crate::enumerate::Levels<Self::Case> = levels::LEVELS;
}

impl crate::puzzle::Traceable for Duel {
    fn trace(case: &Self::Case, fuel: &mut Fuel) -> Option<String> {
        trace::trace(case, fuel)
    }
}

impl crate::puzzle::Counting for Duel {
    /// The core's answer and the branches of its own traced path, in one
    /// run ([`model::solve_with`]): the same branches as
    /// [`Puzzle::rule_branches`], without resolving every line a third time.
    fn solve_counting(case: &Case) -> Option<(lockstep_core::Run<Answer>, u64)> {
        let mut counter = Counter::new(case);
        let run = model::solve_with(case, &mut counter);
        let ended = run
            .answer
            .iter()
            .zip(case)
            .fold(0, |bits, (r, turn)| bits | ending_branches(turn, r));
        Some((run, counter.bits | ended))
    }
}

impl crate::puzzle::Verifiable for Duel {
    /// Each line alone: lines are resolved each on its own.
    fn parts(case: &Case) -> Vec<Case> {
        case.iter().map(|turn| vec![*turn]).collect()
    }

    fn part_count(case: &Case) -> usize {
        case.len()
    }

    /// Three words a line (module `packed`), not nineteen.
    fn hash_answer(answer: &Answer, digest: &mut lockstep_core::digest::Digest) {
        packed::hash_answer(answer, digest);
    }
}
