//! `lockstep duel ladder`: every bot against every other, on the same INITs with
//! the sides swapped, and a table of scores, ratings and endings.
//!
//! Each pair plays a [`tournament`] through the real
//! referee, with the same seed, so every pair meets the same starts and a bot's
//! time is measured as a judge would measure it. The built-in strategies run
//! as `lockstep duel bot --strategy NAME` processes beside any `--cmd` bots.
//! The exploiter ([`BotCommand::Replying`]) is started against each opponent
//! with that opponent as its target, so its row of the table is how far a
//! best reply gets against each bot; it does not meet a bot it cannot model
//! (a `--cmd` program, another exploiter), and the table says so.
//!
//! What the table gives:
//! - per pair, the row bot's score (a win 1, a draw 1/2) with a 95% Wilson
//!   interval, the draws counted as half a success;
//! - per bot, a rating: the Bradley-Terry strengths that explain the scores,
//!   on the Elo scale (400 log10), the bots' mean at 0. Every pair gets one
//!   virtual drawn game, so that a bot that won everything still has a finite
//!   rating (the usual prior of rating tools);
//! - per bot, how its games ended, and the largest time it used in a game.
//!
//! [`play_in_process`] plays one game between two built-in strategies without
//! processes or referee: the tests' and the tuning's game, exact and fast.

use super::bots::{Brain, Strategy};
use super::protocol::Init;
use super::tournament::{self, random_init, wilson_score, Game, Score, TournamentOptions};
use lockstep_core::duel::{resolve_turn, Outcome, State};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One game between built-in strategies (player 1's first), in process: each
/// side chooses with its [`Brain`], core resolves the turn. `per_turn` is each
/// search's deadline per turn (`None`: exhaustive, so that the game is the same
/// on every machine). Returns the outcome and the last turn played.
pub fn play_in_process(
    strategies: [Strategy; 2],
    seed: u64,
    init: Init,
    per_turn: Option<Duration>,
) -> (Outcome, u8) {
    // An exploiter replies to the strategy it faces (to `mixed` when it
    // cannot model it: another exploiter).
    let brain = |me: usize, seed: u64| match strategies[me] {
        Strategy::Exploit => Brain::exploiting(strategies[1 - me], seed)
            .unwrap_or_else(|| Brain::new(Strategy::Exploit, seed)),
        s => Brain::new(s, seed),
    };
    let mut brains = [brain(0, seed), brain(1, seed ^ 0x5851_f42d_4c95_7f2d)];
    let mut state = State::initial(init.spring, init.p1, init.p2);
    loop {
        let mut actions = [[lockstep_core::duel::Action::WAIT; 2]; 2];
        for (me, brain) in brains.iter_mut().enumerate() {
            let deadline = per_turn.map(|d| Instant::now() + d);
            actions[me] = brain.choose(&state, me, deadline);
        }
        let result = resolve_turn(&state, &actions);
        for (me, brain) in brains.iter_mut().enumerate() {
            brain.observe(me, &actions);
        }
        if result.outcome != Outcome::Ongoing {
            return (result.outcome, state.turn);
        }
        state = result.next;
    }
}

/// `games` in-process games of `a` against `b` on the ladder's INITs (pairs
/// of games, sides swapped), from `a`'s side.
pub fn match_in_process(
    a: Strategy,
    b: Strategy,
    games: usize,
    seed: u64,
    per_turn: Option<Duration>,
) -> Vec<(Score, Outcome)> {
    (0..games)
        .map(|index| {
            let init = random_init(&mut lockstep_search::seeds::item_rng(
                seed,
                index as u64 / 2,
            ));
            let swapped = index % 2 == 1;
            let pair = if swapped { [b, a] } else { [a, b] };
            let (outcome, _) = play_in_process(pair, seed ^ index as u64, init, per_turn);
            (Score::of(outcome, usize::from(swapped)), outcome)
        })
        .collect()
}

/// A score: wins plus half the draws, over the games.
pub fn score_of(scores: impl IntoIterator<Item = Score>) -> (f64, usize) {
    let (mut points, mut n) = (0.0, 0);
    for s in scores {
        points += match s {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        };
        n += 1;
    }
    (points, n)
}

/// How a ladder bot is started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotCommand {
    /// The same command against every opponent.
    Fixed(String),
    /// A best reply to each opponent: `template` with `{target}` replaced by
    /// the opponent's name, against the opponents named in `targets` only.
    Replying {
        template: String,
        targets: Vec<String>,
    },
}

impl BotCommand {
    /// The command against `opponent`, or `None` when this bot cannot play it.
    fn against(&self, opponent: &str) -> Option<String> {
        match self {
            BotCommand::Fixed(command) => Some(command.clone()),
            BotCommand::Replying { template, targets } => targets
                .iter()
                .any(|t| t == opponent)
                .then(|| template.replace("{target}", opponent)),
        }
    }
}

#[derive(Debug, Clone)]
pub struct LadderOptions {
    /// Names and commands of the bots.
    pub bots: Vec<(String, BotCommand)>,
    /// Games per pair (rounded up to an even number: pairs of games).
    pub games: usize,
    pub jobs: usize,
    pub seed: u64,
    pub progress: bool,
}

/// Every pair's games, from the first bot's side, in pair order.
#[derive(Debug, Clone)]
pub struct LadderReport {
    pub names: Vec<String>,
    /// (i, j, games of i against j), for i < j.
    pub pairs: Vec<(usize, usize, Vec<Game>)>,
    /// (i, j) of the pairs that did not play (an exploiter and a bot it
    /// cannot model).
    pub skipped: Vec<(usize, usize)>,
    pub elapsed: Duration,
}

/// Plays the ladder.
pub fn play_ladder(options: &LadderOptions) -> std::io::Result<LadderReport> {
    let start = Instant::now();
    let n = options.bots.len();
    let (mut pairs, mut skipped) = (Vec::new(), Vec::new());
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (&options.bots[i], &options.bots[j]);
            let (Some(first), Some(second)) = (a.1.against(&b.0), b.1.against(&a.0)) else {
                skipped.push((i, j));
                continue;
            };
            if options.progress {
                eprintln!(
                    "ladder: {} against {} ({} games)",
                    options.bots[i].0, options.bots[j].0, options.games
                );
            }
            let report = tournament::play_tournament(&TournamentOptions {
                commands: [first, second],
                games: options.games,
                jobs: options.jobs,
                seed: options.seed,
                progress: false,
            })?;
            pairs.push((i, j, report.games));
        }
    }
    Ok(LadderReport {
        names: options.bots.iter().map(|(name, _)| name.clone()).collect(),
        pairs,
        skipped,
        elapsed: start.elapsed(),
    })
}

/// Bradley-Terry ratings on the Elo scale from `points[i][j]` (i's points
/// against j) and `games[i][j]`, with one virtual draw per pair that met; the
/// mean rating is 0. Minorisation-maximisation (Hunter, 2004), 2000 rounds.
pub fn ratings(points: &[Vec<f64>], games: &[Vec<f64>]) -> Vec<f64> {
    let n = points.len();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..2000 {
        for i in 0..n {
            let (mut won, mut denominator) = (0.0, 0.0);
            for j in (0..n).filter(|&j| j != i && games[i][j] > 0.0) {
                won += points[i][j] + 0.5;
                denominator += (games[i][j] + 1.0) / (gamma[i] + gamma[j]);
            }
            if denominator > 0.0 {
                gamma[i] = won / denominator;
            }
        }
        let mean_log = gamma.iter().map(|g| g.ln()).sum::<f64>() / n.max(1) as f64;
        for g in &mut gamma {
            *g /= mean_log.exp();
        }
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

impl LadderReport {
    /// The printed table.
    pub fn table(&self) -> String {
        let n = self.names.len();
        let mut points = vec![vec![0.0; n]; n];
        let mut games = vec![vec![0.0; n]; n];
        let mut endings: Vec<BTreeMap<String, usize>> = vec![BTreeMap::new(); n];
        let mut max_ms = vec![0u128; n];
        let mut cells = BTreeMap::new();
        for (i, j, list) in &self.pairs {
            let (p, k) = score_of(list.iter().map(|g| g.score));
            points[*i][*j] = p;
            points[*j][*i] = k as f64 - p;
            games[*i][*j] = k as f64;
            games[*j][*i] = k as f64;
            cells.insert((*i, *j), (p, k));
            cells.insert((*j, *i), (k as f64 - p, k));
            for g in list {
                let (first, second) = match g.score {
                    Score::Win => ("won", "lost"),
                    Score::Draw => ("drew", "drew"),
                    Score::Loss => ("lost", "won"),
                };
                *endings[*i]
                    .entry(format!("{first} {}", g.reason))
                    .or_default() += 1;
                *endings[*j]
                    .entry(format!("{second} {}", g.reason))
                    .or_default() += 1;
                max_ms[*i] = max_ms[*i].max(g.time_ms[0]);
                max_ms[*j] = max_ms[*j].max(g.time_ms[1]);
            }
        }
        let rating = ratings(&points, &games);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| rating[b].total_cmp(&rating[a]));
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(4);
        let mut out = format!(
            "ladder: {} bots, {} games a pair, {:.1} s\n\
             score of the row's bot against the column's, % (95% Wilson interval)\n\n",
            n,
            self.pairs.first().map_or(0, |p| p.2.len()),
            self.elapsed.as_secs_f64()
        );
        out.push_str(&format!("{:<width$} {:>7}", "bot", "rating"));
        for &j in &order {
            out.push_str(&format!(" {:>17}", self.names[j]));
        }
        out.push('\n');
        for &i in &order {
            out.push_str(&format!("{:<width$} {:>7.0}", self.names[i], rating[i]));
            for &j in &order {
                let cell = match cells.get(&(i, j)) {
                    None => "-".to_string(),
                    Some(&(p, k)) => {
                        let (lo, hi) = wilson_score(p, k);
                        format!(
                            "{:.1} ({:.0}-{:.0})",
                            100.0 * p / k as f64,
                            100.0 * lo,
                            100.0 * hi
                        )
                    }
                };
                out.push_str(&format!(" {cell:>17}"));
            }
            out.push('\n');
        }
        if !self.skipped.is_empty() {
            let names: Vec<String> = (self.skipped.iter())
                .map(|&(i, j)| format!("{} and {}", self.names[i], self.names[j]))
                .collect();
            out.push_str(&format!(
                "\nnot played (an exploiter only meets the built-ins it can model): {}\n",
                names.join(", ")
            ));
        }
        out.push_str("\nhow the games ended, per bot, and its largest time in a game\n");
        for &i in &order {
            let list: Vec<String> = endings[i].iter().map(|(r, k)| format!("{r} {k}")).collect();
            out.push_str(&format!(
                "{:<width$} max {} ms: {}\n",
                self.names[i],
                max_ms[i],
                list.join(", ")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests;
