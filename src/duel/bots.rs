//! The built-in bots: `random` (uniform over the legal action lists) and `greedy`
//! (one turn of lookahead against an opponent that waits).
//!
//! A bot knows only what the protocol tells it: the INIT line and, each turn, the
//! positions, hp, blessing and the opponent's previous actions. It tracks its own
//! waits from its own choices and the opponent's from those previous actions, as
//! the statement says a bot must.

use crate::seeds::SplitMix64;
use lockstep_core::duel::{
    legal_lists, next_waits, parse_actions, resolve_turn, write_actions, Action, Actions, Outcome,
    State, Winner,
};
use std::io::{BufRead, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Random,
    Greedy,
}

/// What a bot has learnt so far.
struct Bot {
    strategy: Strategy,
    rng: SplitMix64,
    me: usize,
    state: Option<State>,
    mine: Option<Actions>,
    lists: Vec<Actions>,
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
        let state = self.state.as_mut()?;
        let (me, other) = (self.me, 1 - self.me);
        if numbers[1] > 1 {
            state.players[me].waits = next_waits(&state.players[me].waits, self.mine.as_ref());
            state.players[other].waits = next_waits(&state.players[other].waits, Some(&previous));
        }
        state.turn = numbers[1] as u8;
        for p in 0..2 {
            let base = 2 + 4 * p;
            state.players[p].pos = (numbers[base] as i8, numbers[base + 1] as i8);
            state.players[p].hp = numbers[base + 2] as i8;
            state.players[p].blessing = numbers[base + 3] as u8;
        }
        Some(())
    }

    fn choose(&mut self) -> Actions {
        let Some(state) = self.state else {
            return [Action::WAIT; 2];
        };
        legal_lists(&state, self.me, &mut self.lists);
        if self.lists.is_empty() {
            return [Action::WAIT; 2];
        }
        let pick = match self.strategy {
            Strategy::Random => (self.rng.next_u64() % self.lists.len() as u64) as usize,
            Strategy::Greedy => self.greedy(&state),
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
    };
    for line in input.lines() {
        let line = line?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.first().copied() {
            Some("INIT") => {
                if let Some(v) = ints(&tokens[1..]).filter(|v| v.len() == 6) {
                    let cell = |i: usize| (v[i] as i8, v[i + 1] as i8);
                    bot.state = Some(State::initial(cell(0), cell(2), cell(4)));
                }
            }
            Some("READY") => {
                bot.me = usize::from(tokens.get(1) == Some(&"SECOND"));
                writeln!(output, "OK")?;
                output.flush()?;
            }
            Some("TURN") => {
                // A line that does not read leaves the old state: the bot still answers.
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
