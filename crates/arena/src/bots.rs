//! The built-in bots (`lockstep duel bot --strategy`):
//! - `mixed`, the default: an approximate equilibrium of the turn's matrix
//!   game under the race evaluation (core's double oracle,
//!   `lockstep_core::duel::mixed`), sampled with the bot's seeded generator,
//!   so that no opponent can read its next list from the state; and it reads
//!   an opponent that plays like one of the deterministic built-ins
//!   ([`super::reading`]) and replies to it;
//! - `search`: the race maximin (`lockstep_core::duel::race`), with a second
//!   pass that, when every list can lose, plays the one with the fewest
//!   losing replies; deterministic, the default before `mixed`;
//! - `search1`: the first search bot, the same maximin under the plain
//!   one-turn evaluation;
//! - `exploit`: a best reply to another built-in strategy (`--target`), which
//!   it models by running that strategy's own [`Brain`] on the same state:
//!   what an opponent that knows how a bot thinks gets against it;
//! - `spring`, `chase`, `greedy` and `random`: plain baselines.
//!
//! Every brain gives its [`Policy`], the distribution its list is drawn from
//! (one list for the deterministic ones), and plays a draw from it; the
//! exploiter reads its target's policy, never its draw.
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

use super::plans::{chase_plan, spring_plan};
use super::protocol::{Init, TurnLine};
use super::reading::{Policy, Predictor, Reader};
use lockstep_core::duel::search::Searcher;
use lockstep_core::duel::{
    check_legal, inside, legal_lists, next_waits, resolve_turn, write_actions, Action, Actions,
    Outcome, State, Winner, LAST_TURN,
};
use lockstep_search::seeds::SplitMix64;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// How a built-in bot chooses its actions (`lockstep duel bot --strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Strategy {
    /// The default: an approximate equilibrium of the turn's matrix game under
    /// the race evaluation (core's double oracle), sampled.
    Mixed,
    /// Depth-one maximin under the race evaluation (core's search with
    /// `evaluate_race`), within its time: deterministic.
    Search,
    /// The first search bot: the same maximin under the plain one-turn
    /// evaluation (`evaluate`), kept as a baseline.
    Search1,
    /// A best reply to what the `--target` strategy would play, from that
    /// strategy's own policy on the same state.
    Exploit,
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
    /// Every built-in strategy, strongest first by design (the exploiter
    /// after the bots it is meant to measure).
    pub const ALL: [Strategy; 8] = [
        Strategy::Mixed,
        Strategy::Search,
        Strategy::Search1,
        Strategy::Exploit,
        Strategy::Spring,
        Strategy::Chase,
        Strategy::Greedy,
        Strategy::Random,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Mixed => "mixed",
            Strategy::Search => "search",
            Strategy::Search1 => "search1",
            Strategy::Exploit => "exploit",
            Strategy::Spring => "spring",
            Strategy::Chase => "chase",
            Strategy::Greedy => "greedy",
            Strategy::Random => "random",
        }
    }

    /// The strategy named `name` on the command line.
    pub fn named(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether the strategy resolves turns (and wants the engine's table built).
    fn resolves(self) -> bool {
        !matches!(self, Strategy::Spring | Strategy::Chase | Strategy::Random)
    }

    /// Whether `exploit` can play a best reply to it: every built-in but the
    /// exploiter itself, whose own target the opponent cannot know.
    pub fn exploitable(self) -> bool {
        self != Strategy::Exploit
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

/// The plans the mixed bot can read (see [`super::reading`]).
const READABLE: [Strategy; 4] = [
    Strategy::Spring,
    Strategy::Chase,
    Strategy::Greedy,
    Strategy::Search,
];

/// The most lists of a target's policy the exploiter replies to at once: a
/// wider policy (`random`'s 945 lists, say) is replaced by this many draws
/// from it, so that the best reply stays a few thousand resolutions per
/// hundred lists of its own.
const MODELLED_LISTS: usize = 48;

/// The exploiter's model of its target gets this many times the deadline the
/// bot has, so that a target whose search ends before its own deadline (the
/// usual case) is modelled to its end.
const MODEL_TIME: f64 = 1.5;

/// A strategy's decisions, apart from the protocol: what the bot and the
/// in-process ladder ([`super::ladder`]) both call.
pub struct Brain {
    strategy: Strategy,
    rng: SplitMix64,
    lists: Vec<Actions>,
    searcher: Searcher,
    /// The exploiter's model: its target's own brain.
    target: Option<Box<Brain>>,
    /// The mixed bot's models of a predictable opponent.
    reader: Option<Box<Reader<Brain>>>,
}

impl Predictor for Brain {
    fn policy(&mut self, state: &State, me: usize, deadline: Option<Instant>) -> Policy {
        Brain::policy(self, state, me, deadline)
    }
}

impl Brain {
    /// A brain of `strategy`; an exploiter made here targets the default,
    /// `mixed` ([`Brain::exploiting`] names another).
    pub fn new(strategy: Strategy, seed: u64) -> Brain {
        let target = (strategy == Strategy::Exploit)
            .then(|| Box::new(Brain::new(Strategy::Mixed, seed ^ 0x9e37_79b9_7f4a_7c15)));
        Brain {
            strategy,
            rng: SplitMix64::new(seed),
            lists: Vec::with_capacity(1089),
            searcher: Searcher::new(),
            target,
            reader: (strategy == Strategy::Mixed).then(|| {
                let models = READABLE.map(|s| (s.name(), Brain::new(s, seed)));
                Box::new(Reader::new(models.into()))
            }),
        }
    }

    /// Tells the brain what both players played in the turn just resolved
    /// (`lists`, by player), `me` being its side: the mixed bot scores its
    /// readings of the opponent, an exploiter passes the turn on to its model
    /// of the target.
    pub fn observe(&mut self, me: usize, lists: &[Actions; 2]) {
        if let Some(reader) = &mut self.reader {
            reader.observe(&lists[1 - me]);
        }
        if let Some(target) = &mut self.target {
            target.observe(1 - me, lists);
        }
    }

    /// An exploiter of `target`, or `None` when the target cannot be modelled
    /// ([`Strategy::exploitable`]).
    pub fn exploiting(target: Strategy, seed: u64) -> Option<Brain> {
        if !target.exploitable() {
            return None;
        }
        let mut brain = Brain::new(Strategy::Exploit, seed);
        // The model's own generator is never drawn from: a policy is a
        // distribution, not a draw.
        brain.target = Some(Box::new(Brain::new(target, seed ^ 0x9e37_79b9_7f4a_7c15)));
        Some(brain)
    }

    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// `me`'s policy in `state`: every list legal, weights summing to 1. The
    /// searches stop before their next row or round once `deadline` has
    /// passed (`None`: to the end). Draws nothing from the generator.
    pub fn policy(&mut self, state: &State, me: usize, deadline: Option<Instant>) -> Policy {
        let one = |list: Actions| vec![(list, 1.0)];
        match self.strategy {
            Strategy::Mixed => {
                // The models get half the turn's time at most.
                let now = Instant::now();
                let half = deadline.map(|d| now + d.saturating_duration_since(now) / 2);
                let read = (self.reader.as_mut()).and_then(|r| r.predict(state, me, half).cloned());
                match read {
                    Some(theirs) => one(self.searcher.safe_reply(state, me, &theirs, deadline)),
                    None => self.searcher.mixed(state, me, deadline).lists,
                }
            }
            Strategy::Search => one(self.searcher.race(state, me, deadline).best),
            Strategy::Search1 => one(self.searcher.maximin(state, me, deadline).best),
            Strategy::Exploit => one(self.exploit(state, me, deadline)),
            Strategy::Spring => one(spring_plan(state, me)),
            Strategy::Chase => one(chase_plan(state, me)),
            Strategy::Greedy => self.greedy(state, me),
            Strategy::Random => {
                legal_lists(state, me, &mut self.lists);
                let w = 1.0 / self.lists.len().max(1) as f64;
                self.lists.iter().map(|&list| (list, w)).collect()
            }
        }
    }

    /// `me`'s action list in `state`, drawn from its [`Brain::policy`]:
    /// always a legal one.
    pub fn choose(&mut self, state: &State, me: usize, deadline: Option<Instant>) -> Actions {
        let policy = self.policy(state, me, deadline);
        let chosen = match policy.as_slice() {
            [] => [Action::WAIT; 2],
            [(only, _)] => *only,
            _ => draw(&policy, &mut self.rng),
        };
        // A plan that overlooked a rule waits rather than lose by an illegal list.
        if check_legal(state, me, &chosen).is_ok() {
            chosen
        } else {
            [Action::WAIT; 2]
        }
    }

    /// The exploiter's list: its target's policy for the opponent's side
    /// (at most [`MODELLED_LISTS`] lists, drawn from it when wider), and the
    /// best reply to it.
    fn exploit(&mut self, state: &State, me: usize, deadline: Option<Instant>) -> Actions {
        let now = Instant::now();
        let model_deadline =
            deadline.map(|d| now + d.saturating_duration_since(now).mul_f64(MODEL_TIME));
        let target = self.target.as_mut().expect("an exploiter has a target");
        let mut theirs = target.policy(state, 1 - me, model_deadline);
        if theirs.len() > MODELLED_LISTS {
            let w = 1.0 / MODELLED_LISTS as f64;
            theirs = (0..MODELLED_LISTS)
                .map(|_| (draw(&theirs, &mut self.rng), w))
                .collect();
        }
        self.searcher.best_reply(state, me, &theirs)
    }

    /// The lists that score best one turn ahead if the opponent waits, all of
    /// them equally likely, so that two greedy bots do not repeat forever.
    fn greedy(&mut self, state: &State, me: usize) -> Policy {
        legal_lists(state, me, &mut self.lists);
        let other = 1 - me;
        let mine = if me == 0 { Winner::P1 } else { Winner::P2 };
        let scores: Vec<i64> = self
            .lists
            .iter()
            .map(|list| {
                let mut actions = [[Action::WAIT; 2]; 2];
                actions[me] = *list;
                let result = resolve_turn(state, &actions);
                let n = &result.next.players;
                let ended = match result.outcome {
                    Outcome::Ended(w, _) if w == mine => 1_000_000,
                    Outcome::Ended(Winner::Draw, _) => -1000,
                    Outcome::Ended(..) => -1_000_000,
                    Outcome::Ongoing => 0,
                };
                let dist = |p: usize| {
                    let (r, c) = n[p].pos;
                    i64::from((r - state.spring.0).abs() + (c - state.spring.1).abs())
                };
                ended
                    + 30 * i64::from(n[me].hp - n[other].hp)
                    + 40 * (i64::from(n[me].blessing) - i64::from(n[other].blessing))
                    - 5 * dist(me)
            })
            .collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let tied = scores.iter().filter(|&&s| s == best).count();
        (self.lists.iter().zip(&scores))
            .filter(|(_, &s)| s == best)
            .map(|(&list, _)| (list, 1.0 / tied as f64))
            .collect()
    }
}

/// A list drawn from `policy` (weights summing to 1) with `rng`.
fn draw(policy: &[(Actions, f64)], rng: &mut SplitMix64) -> Actions {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut sum = 0.0;
    for &(list, w) in policy {
        sum += w;
        if u < sum {
            return list;
        }
    }
    policy.last().map_or([Action::WAIT; 2], |p| p.0)
}

/// What a bot has learnt so far.
struct Bot {
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
            if let Some(mine) = self.mine {
                let mut lists = [mine; 2];
                lists[other] = turn.previous;
                self.brain.observe(me, &lists);
            }
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

/// Plays one game with `brain` on `input`/`output` (stdin and stdout for
/// `lockstep duel bot`). Returns at FINISH or the end of input.
pub fn play(brain: Brain, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut bot = Bot {
        brain,
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
                if bot.brain.strategy().resolves() {
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
