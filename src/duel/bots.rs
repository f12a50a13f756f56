//! The built-in bots (`lockstep duel bot --strategy`):
//! - `search`, the default: core's depth-one maximin over the turn's matrix
//!   game under the race evaluation (`lockstep_core::duel::race`), with a
//!   second pass that, when every list can lose, plays the one with the fewest
//!   losing replies (ARCHITECTURE.md says why this design);
//! - `search1`: the first search bot, the same maximin under the plain
//!   one-turn evaluation, kept as a baseline;
//! - `spring`, `chase`, `greedy` and `random`: plain baselines, each a few
//!   lines over the engine.
//!
//! Time: the referee gives 1000 ms in all, for READY and up to 60 TURN answers,
//! and writes the time left on each TURN line. A search bot gives each turn
//! a deadline of `SHARE` of (time left - `RESERVE_MS`) divided by the turns
//! still to play (this one included), capped at `MAX_TURN_MS`, counted from the
//! moment it read the TURN line. The cap keeps a whole game under 60 x 4 ms of
//! search even if every turn used its full share; the exhaustive search rarely
//! needs it.
//! The reserve covers what the bot's own clock cannot see (pipes, scheduling,
//! the referee's side).
//!
//! A bot knows only what the protocol tells it: the INIT line and, each turn, the
//! positions, hp, blessing and the opponent's previous actions. It tracks its own
//! waits from its own choices and the opponent's from those previous actions, as
//! the statement says a bot must.

use super::protocol::{Init, TurnLine};
use super::toward;
use crate::seeds::SplitMix64;
use lockstep_core::duel::search::Searcher;
use lockstep_core::duel::{
    check_legal, inside, legal_lists, next_waits, resolve_turn, write_actions, Action, Actions,
    Cell, Dir, Outcome, State, Winner, BREAK, CHARGE, DASH, GUARD, LAST_TURN, MOVE, SWEEP, THRUST,
};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// How a built-in bot chooses its actions (`lockstep duel bot --strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Strategy {
    /// The default: depth-one maximin over the turn's matrix game under the race
    /// evaluation (core's search with `evaluate_race`), within its time.
    Search,
    /// The first search bot: the same maximin under the plain one-turn
    /// evaluation (`evaluate`), kept as a baseline.
    Search1,
    /// Walk to the spring and stay; thrust at an opponent in reach, otherwise
    /// guard facing it.
    Spring,
    /// Chase the opponent and attack it with the strongest skill in reach.
    Chase,
    /// One turn of lookahead against a waiting opponent.
    Greedy,
    /// Uniform over the legal action lists.
    Random,
}

impl Strategy {
    /// Every built-in strategy, strongest first by design.
    pub const ALL: [Strategy; 6] = [
        Strategy::Search,
        Strategy::Search1,
        Strategy::Spring,
        Strategy::Chase,
        Strategy::Greedy,
        Strategy::Random,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Search => "search",
            Strategy::Search1 => "search1",
            Strategy::Spring => "spring",
            Strategy::Chase => "chase",
            Strategy::Greedy => "greedy",
            Strategy::Random => "random",
        }
    }

    /// Whether the strategy resolves turns (and wants the engine's table built).
    fn resolves(self) -> bool {
        matches!(
            self,
            Strategy::Search | Strategy::Search1 | Strategy::Greedy
        )
    }
}

/// Time kept back from the budget for what the bot's clock does not see.
const RESERVE_MS: f64 = 200.0;
/// The part of the per-turn share the search may use.
const SHARE: f64 = 0.5;
/// No turn gets more than this, however much time is left.
const MAX_TURN_MS: f64 = 4.0;

/// The search deadline for one turn, from the TURN line's `time` (ms left) and
/// `turn` (1..=60), counted from `now`.
pub fn turn_budget(time_left_ms: u64, turn: u8) -> Duration {
    let turns_left = f64::from(LAST_TURN.saturating_sub(turn) + 1).max(1.0);
    let spare = (time_left_ms as f64 - RESERVE_MS).max(0.0);
    Duration::from_secs_f64((SHARE * spare / turns_left).min(MAX_TURN_MS) / 1000.0)
}

/// A strategy's decisions, apart from the protocol: what the bot and the
/// in-process ladder ([`super::ladder`]) both call.
pub struct Brain {
    strategy: Strategy,
    rng: SplitMix64,
    lists: Vec<Actions>,
    searcher: Searcher,
}

impl Brain {
    pub fn new(strategy: Strategy, seed: u64) -> Brain {
        Brain {
            strategy,
            rng: SplitMix64::new(seed),
            lists: Vec::with_capacity(1089),
            searcher: Searcher::new(),
        }
    }

    /// `me`'s action list in `state`: always a legal one. The searches stop
    /// before their next row once `deadline` has passed (`None`: exhaustive).
    pub fn choose(&mut self, state: &State, me: usize, deadline: Option<Instant>) -> Actions {
        let chosen = match self.strategy {
            Strategy::Search => self.searcher.race(state, me, deadline).best,
            Strategy::Search1 => self.searcher.maximin(state, me, deadline).best,
            Strategy::Spring => spring_plan(state, me),
            Strategy::Chase => chase_plan(state, me),
            Strategy::Greedy | Strategy::Random => {
                legal_lists(state, me, &mut self.lists);
                if self.lists.is_empty() {
                    return [Action::WAIT; 2];
                }
                let pick = if self.strategy == Strategy::Random {
                    (self.rng.next_u64() % self.lists.len() as u64) as usize
                } else {
                    self.greedy(state, me)
                };
                self.lists[pick]
            }
        };
        // A plan that overlooked a rule waits rather than lose by an illegal list.
        if check_legal(state, me, &chosen).is_ok() {
            chosen
        } else {
            [Action::WAIT; 2]
        }
    }

    /// The list that scores best one turn ahead if the opponent waits; ties are
    /// broken at random so that two greedy bots do not repeat forever.
    fn greedy(&mut self, state: &State, me: usize) -> usize {
        let other = 1 - me;
        let mut best = (i64::MIN, 0);
        for (i, list) in self.lists.iter().enumerate() {
            let mut actions = [[Action::WAIT; 2]; 2];
            actions[me] = *list;
            let result = resolve_turn(state, &actions);
            let mine = if me == 0 { Winner::P1 } else { Winner::P2 };
            let n = &result.next.players;
            let mut score = match result.outcome {
                Outcome::Ended(w, _) if w == mine => 1_000_000,
                Outcome::Ended(Winner::Draw, _) => -1000,
                Outcome::Ended(..) => -1_000_000,
                Outcome::Ongoing => 0,
            };
            let dist = |p: usize| {
                let (r, c) = n[p].pos;
                i64::from((r - state.spring.0).abs() + (c - state.spring.1).abs())
            };
            score += 30 * i64::from(n[me].hp - n[other].hp)
                + 40 * (i64::from(n[me].blessing) - i64::from(n[other].blessing))
                - 5 * dist(me);
            let score = score * 16 + (self.rng.next_u64() % 16) as i64;
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }
}

/// The straight direction `d` and distance `k` with `to == from + k * d`, if
/// `to` is on one of `from`'s four lines.
fn in_line(from: Cell, to: Cell) -> Option<(Dir, i8)> {
    let (dr, dc) = (to.0 - from.0, to.1 - from.1);
    if (dr == 0) == (dc == 0) {
        return None;
    }
    Some((toward(from, to), dr.abs() + dc.abs()))
}

fn step(from: Cell, d: Dir) -> Cell {
    let (dr, dc) = d.delta();
    (from.0 + dr, from.1 + dc)
}

/// The `spring` plan: walk to the spring (one cell a slot) and stay; there,
/// thrust at an opponent in the thrust's reach, otherwise guard facing it.
/// Skills on cooldown are skipped (a wait instead), so every list is legal.
pub fn spring_plan(state: &State, me: usize) -> Actions {
    let player = &state.players[me];
    let other = state.players[1 - me].pos;
    let mut used = [false; 8];
    let ready = |code: u8, used: &[bool; 8]| {
        let skill = usize::from(code) - 2;
        player.waits[skill] == 0 && !used[usize::from(code)]
    };
    let mut at = player.pos;
    let mut out = [Action::WAIT; 2];
    for slot in &mut out {
        *slot = if at != state.spring {
            let d = toward(at, state.spring);
            if step(at, d) != other {
                at = step(at, d);
            }
            Action::new(MOVE, d)
        } else if let Some((d, _)) = in_line(at, other).filter(|&(_, k)| k <= 2) {
            if ready(THRUST, &used) {
                used[usize::from(THRUST)] = true;
                Action::new(THRUST, d)
            } else if ready(GUARD, &used) {
                used[usize::from(GUARD)] = true;
                Action::new(GUARD, d)
            } else {
                Action::WAIT
            }
        } else if ready(GUARD, &used) {
            used[usize::from(GUARD)] = true;
            Action::new(GUARD, toward(at, other))
        } else {
            Action::WAIT
        };
    }
    out
}

/// The `chase` plan: close in on the opponent and strike it with the
/// strongest skill whose area reaches it (charge, then break or thrust, then
/// sweep), a slot at a time; dash when it is three or more cells away.
pub fn chase_plan(state: &State, me: usize) -> Actions {
    let player = &state.players[me];
    let other = state.players[1 - me].pos;
    let mut used = [false; 8];
    let mut at = player.pos;
    let mut out = [Action::WAIT; 2];
    for (n, slot) in out.iter_mut().enumerate() {
        let ready = |code: u8, used: &[bool; 8]| {
            player.waits[usize::from(code) - 2] == 0 && !used[usize::from(code)]
        };
        let line = in_line(at, other);
        let (dr, dc) = (other.0 - at.0, other.1 - at.1);
        let adjacent_diagonal = dr.abs() == 1 && dc.abs() == 1;
        let strike = match line {
            Some((d, 1)) => [CHARGE, BREAK, THRUST, SWEEP]
                .into_iter()
                .find(|&c| ready(c, &used))
                .map(|c| (c, d)),
            Some((d, 2)) => [CHARGE, THRUST]
                .into_iter()
                .find(|&c| ready(c, &used))
                .map(|c| (c, d)),
            Some((d, 3)) => [CHARGE]
                .into_iter()
                .find(|&c| ready(c, &used))
                .map(|c| (c, d)),
            _ if adjacent_diagonal && ready(SWEEP, &used) => Some((SWEEP, toward(at, other))),
            _ => None,
        };
        *slot = if let Some((code, d)) = strike {
            used[usize::from(code)] = true;
            Action::new(code, d)
        } else {
            let d = toward(at, other);
            let dist = dr.abs() + dc.abs();
            let far = step(step(at, d), d);
            if dist >= 3 && ready(DASH, &used) && inside(far) && (n == 1 || far != other) {
                used[usize::from(DASH)] = true;
                at = far;
                Action::new(DASH, d)
            } else {
                if step(at, d) != other {
                    at = step(at, d);
                }
                Action::new(MOVE, d)
            }
        };
    }
    out
}

/// What a bot has learnt so far.
struct Bot {
    strategy: Strategy,
    brain: Brain,
    me: usize,
    state: Option<State>,
    mine: Option<Actions>,
    read_at: Instant,
    /// The deadline the current TURN line allows.
    deadline: Option<Instant>,
}

impl Bot {
    /// Updates the state from a TURN line; `None` if it does not read.
    fn on_turn(&mut self, line: &str) -> Option<()> {
        let turn: TurnLine = line.parse().ok()?;
        if !(1..=LAST_TURN).contains(&turn.turn) {
            return None;
        }
        // Built on a copy and checked before it replaces the old state, so that a
        // line with cells off the yard cannot reach the resolver (which indexes
        // tables by cell).
        let mut state = self.state?;
        let (me, other) = (self.me, 1 - self.me);
        if turn.turn > 1 {
            state.players[me].waits = next_waits(&state.players[me].waits, self.mine.as_ref());
            state.players[other].waits =
                next_waits(&state.players[other].waits, Some(&turn.previous));
        }
        state.turn = turn.turn;
        for (player, figures) in state.players.iter_mut().zip(&turn.players) {
            player.pos = figures.pos;
            player.hp = figures.hp;
            player.blessing = figures.blessing;
        }
        let [a, b] = state.players.map(|p| p.pos);
        if !inside(a) || !inside(b) || a == b {
            return None;
        }
        self.state = Some(state);
        self.deadline = Some(self.read_at + turn_budget(turn.time_ms, state.turn));
        Some(())
    }

    fn choose(&mut self) -> Actions {
        let Some(state) = self.state else {
            return [Action::WAIT; 2];
        };
        // Without a deadline (a TURN line that did not read) a search gets a
        // tiny one: it still finishes its first row, a legal list.
        let deadline = self
            .deadline
            .unwrap_or_else(|| self.read_at + Duration::from_millis(1));
        self.brain.choose(&state, self.me, Some(deadline))
    }
}

/// Plays one game on `input`/`output` (stdin and stdout for `lockstep duel bot`).
/// Returns at FINISH or the end of input.
pub fn play(
    strategy: Strategy,
    seed: u64,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut bot = Bot {
        strategy,
        brain: Brain::new(strategy, seed),
        me: 0,
        state: None,
        mine: None,
        deadline: None,
        read_at: Instant::now(),
    };
    for line in input.lines() {
        let line = line?;
        bot.read_at = Instant::now();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.first().copied() {
            Some("INIT") => {
                // The bots that resolve turns build the engine's table (about
                // 3 ms) on a thread of its own, so that answering READY, which
                // the referee sends right after INIT and times, does not wait
                // for it; a search that starts first waits for the table.
                if bot.strategy.resolves() {
                    std::thread::spawn(lockstep_core::duel::prepare);
                }
                // An INIT that does not read, or puts a cell off the yard or both
                // players on one cell, is ignored rather than trusted: the
                // resolver's tables are indexed by cell.
                if let Ok(init) = line.parse::<Init>() {
                    if [init.spring, init.p1, init.p2].into_iter().all(inside) && init.p1 != init.p2
                    {
                        bot.state = Some(State::initial(init.spring, init.p1, init.p2));
                    }
                }
            }
            Some("READY") => {
                bot.me = usize::from(tokens.get(1) == Some(&"SECOND"));
                writeln!(output, "OK")?;
                output.flush()?;
            }
            Some("TURN") => {
                // A line that does not read leaves the old state: the bot still answers.
                bot.deadline = None;
                let _ = bot.on_turn(&line);
                let actions = bot.choose();
                bot.mine = Some(actions);
                writeln!(output, "{}", write_actions(&actions))?;
                output.flush()?;
            }
            Some("FINISH") => return Ok(()),
            _ => {}
        }
    }
    Ok(())
}
