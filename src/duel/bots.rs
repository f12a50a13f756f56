//! The built-in bots: `search` (the default: core's depth-one maximin over the
//! turn's matrix game, within a time budget), `random` (uniform over the legal
//! action lists) and `greedy` (one turn of lookahead against an opponent that
//! waits).
//!
//! Time: the referee gives 1000 ms in all, for READY and up to 60 TURN answers,
//! and writes the time left on each TURN line. The search bot gives each turn
//! a deadline of `SHARE` of (time left - `RESERVE_MS`) divided by the turns
//! still to play (this one included), capped at `MAX_TURN_MS`, counted from the
//! moment it read the TURN line. The reserve covers what the bot's own clock
//! cannot see (pipes, scheduling, the referee's side), and the share leaves the
//! rest for later turns, so the budget shrinks gently and is never exceeded:
//! a bot that spent every budget in full plus 2 ms per turn its clock does not
//! see would still use about 750 ms in 60 turns (a test holds it under 800).
//!
//! A bot knows only what the protocol tells it: the INIT line and, each turn, the
//! positions, hp, blessing and the opponent's previous actions. It tracks its own
//! waits from its own choices and the opponent's from those previous actions, as
//! the statement says a bot must.

use crate::seeds::SplitMix64;
use lockstep_core::duel::search::Searcher;
use lockstep_core::duel::{
    inside, legal_lists, next_waits, parse_actions, resolve_turn, write_actions, Action, Actions,
    Outcome, State, Winner, LAST_TURN,
};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Search,
    Random,
    Greedy,
}

/// Time kept back from the budget for what the bot's clock does not see.
const RESERVE_MS: f64 = 200.0;
/// The part of the per-turn share the search may use.
const SHARE: f64 = 0.5;
/// No turn gets more than this, however much time is left.
const MAX_TURN_MS: f64 = 40.0;

/// The search deadline for one turn, from the TURN line's `time` (ms left) and
/// `turn` (1..=60), counted from `now`.
pub fn turn_budget(time_left_ms: u64, turn: u8) -> Duration {
    let turns_left = f64::from(LAST_TURN.saturating_sub(turn) + 1).max(1.0);
    let spare = (time_left_ms as f64 - RESERVE_MS).max(0.0);
    Duration::from_secs_f64((SHARE * spare / turns_left).min(MAX_TURN_MS) / 1000.0)
}

/// What a bot has learnt so far.
struct Bot {
    strategy: Strategy,
    rng: SplitMix64,
    me: usize,
    state: Option<State>,
    mine: Option<Actions>,
    lists: Vec<Actions>,
    searcher: Searcher,
    read_at: Instant,
    /// When the current TURN line was read, and the deadline it allows.
    deadline: Option<Instant>,
}

fn ints(tokens: &[&str]) -> Option<Vec<i64>> {
    tokens.iter().map(|t| t.parse().ok()).collect()
}

impl Bot {
    /// Updates the state from a TURN line's fields; `None` if it does not read.
    fn on_turn(&mut self, tokens: &[&str]) -> Option<()> {
        // TURN time turn r1 c1 hp1 b1 r2 c2 hp2 b2 A B (A, B take 1 or 2 tokens each)
        let numbers = ints(tokens.get(1..11)?)?;
        let previous = parse_actions(&tokens[11..].join(" ")).ok()?;
        if !(1..=i64::from(LAST_TURN)).contains(&numbers[1]) || numbers[0] < 0 {
            return None;
        }
        // Built on a copy and checked before it replaces the old state, so that a
        // line with cells off the yard cannot reach the resolver (which indexes
        // tables by cell).
        let mut state = self.state?;
        let (me, other) = (self.me, 1 - self.me);
        if numbers[1] > 1 {
            state.players[me].waits = next_waits(&state.players[me].waits, self.mine.as_ref());
            state.players[other].waits = next_waits(&state.players[other].waits, Some(&previous));
        }
        state.turn = numbers[1] as u8;
        for p in 0..2 {
            let base = 2 + 4 * p;
            let cell = |v: i64| i8::try_from(v).unwrap_or(0);
            state.players[p].pos = (cell(numbers[base]), cell(numbers[base + 1]));
            state.players[p].hp = numbers[base + 2].clamp(-100, 100) as i8;
            state.players[p].blessing = numbers[base + 3].clamp(0, 100) as u8;
        }
        let [a, b] = state.players.map(|p| p.pos);
        if !inside(a) || !inside(b) || a == b {
            return None;
        }
        self.state = Some(state);
        self.deadline = Some(self.read_at + turn_budget(numbers[0] as u64, state.turn));
        Some(())
    }

    fn choose(&mut self) -> Actions {
        let Some(state) = self.state else {
            return [Action::WAIT; 2];
        };
        if self.strategy == Strategy::Search {
            // Without a deadline (a TURN line that did not read) the search gets
            // a tiny one: it still finishes its first row, a legal list.
            let deadline = self
                .deadline
                .unwrap_or_else(|| self.read_at + Duration::from_millis(1));
            return self.searcher.maximin(&state, self.me, Some(deadline)).best;
        }
        legal_lists(&state, self.me, &mut self.lists);
        if self.lists.is_empty() {
            return [Action::WAIT; 2];
        }
        let pick = match self.strategy {
            Strategy::Random => (self.rng.next_u64() % self.lists.len() as u64) as usize,
            Strategy::Greedy => self.greedy(&state),
            Strategy::Search => unreachable!("answered above"),
        };
        self.lists[pick]
    }

    /// The list that scores best one turn ahead if the opponent waits; ties are
    /// broken at random so that two greedy bots do not repeat forever.
    fn greedy(&mut self, state: &State) -> usize {
        let (me, other) = (self.me, 1 - self.me);
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
        rng: SplitMix64::new(seed),
        me: 0,
        state: None,
        mine: None,
        lists: Vec::with_capacity(1089),
        searcher: Searcher::new(),
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
                if strategy != Strategy::Random {
                    std::thread::spawn(lockstep_core::duel::prepare);
                }
                // An INIT that does not read, or puts a cell off the yard or both
                // players on one cell, is ignored rather than trusted: the
                // resolver's tables are indexed by cell.
                if let Some(v) = ints(&tokens[1..]).filter(|v| v.len() == 6) {
                    let cell = |i: usize| {
                        let (r, c) = (i8::try_from(v[i]).ok()?, i8::try_from(v[i + 1]).ok()?);
                        inside((r, c)).then_some((r, c))
                    };
                    if let (Some(spring), Some(p1), Some(p2)) = (cell(0), cell(2), cell(4)) {
                        if p1 != p2 {
                            bot.state = Some(State::initial(spring, p1, p2));
                        }
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
                let _ = bot.on_turn(&tokens);
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
