//! `lockstep duel tournament`: many games between two bot programs through the
//! real referee, with a win rate and its confidence interval.
//!
//! Each game is a separate [`referee::referee_game`] with both programs started afresh as
//! processes, so a tournament measures exactly what a judge would see, time
//! included. Games come in pairs on one random INIT with the sides swapped (game
//! `2k` has `--p1` as player 1, game `2k + 1` as player 2), so neither program
//! profits from the side or the start. `jobs` games run at once, on threads
//! pulling game numbers from a shared counter; results are kept by game number,
//! so the report does not depend on which thread finished first.
//!
//! The report gives, for `--p1`'s program: wins, draws and losses; the win rate
//! with its 95% Wilson score interval (sound for rates near 0 or 1, where the
//! normal approximation is not); how the games ended (hp, out, blessing, turns,
//! and the referee's losses: illegal, timeout, crash, malformed); and per program
//! the median and largest total time it used in a game, as the referee measured it.

use super::protocol::Init;
use super::referee::{self, BotFault, FaultKind, RefereeOptions};
use lockstep_core::duel::{Outcome, Reason, Winner};
use lockstep_search::seeds::SplitMix64;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct TournamentOptions {
    /// The program whose results are reported, and its opponent.
    pub commands: [String; 2],
    pub games: usize,
    pub jobs: usize,
    pub seed: u64,
    /// Live progress on stderr.
    pub progress: bool,
}

/// A random start: spring, player 1, player 2 (the players on different cells).
pub fn random_init(rng: &mut SplitMix64) -> Init {
    let mut cell = || {
        (
            (rng.next_u64() % 7) as i8 + 1,
            (rng.next_u64() % 7) as i8 + 1,
        )
    };
    let spring = cell();
    let p1 = cell();
    let mut p2 = cell();
    while p2 == p1 {
        p2 = cell();
    }
    Init { spring, p1, p2 }
}

/// A game's result for the first program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// The game's result for the player on `side` (0: player 1). An unfinished
    /// game counts as a draw.
    pub(crate) fn of(outcome: Outcome, side: usize) -> Score {
        match outcome {
            Outcome::Ended(Winner::Draw, _) | Outcome::Ongoing => Score::Draw,
            Outcome::Ended(w, _) if w == [Winner::P1, Winner::P2][side] => Score::Win,
            Outcome::Ended(..) => Score::Loss,
        }
    }
}

/// One game, from the first program's side.
#[derive(Debug, Clone)]
pub struct Game {
    pub init: Init,
    /// Whether the first program played as player 2.
    pub swapped: bool,
    pub score: Score,
    /// How it ended: `hp`, `out`, `blessing`, `turns`, or for the referee's
    /// losses `illegal`, `timeout`, `crash`, `malformed`, `ready`.
    pub reason: &'static str,
    /// The referee's words.
    pub detail: String,
    pub turns: u8,
    /// Total time each program used, first program first, in ms.
    pub time_ms: [u128; 2],
}

/// The kind of ending: the rule that ended the game, or for a referee's loss the
/// kind of the (first) failing player's failure ([`FaultKind`]).
fn classify(reason: Reason, failures: &[Option<BotFault>; 2]) -> &'static str {
    match reason {
        Reason::Illegal => match failures.iter().flatten().next().map(|f| f.kind) {
            Some(FaultKind::Timeout) => "timeout",
            Some(FaultKind::Crash) => "crash",
            Some(FaultKind::Ready) => "ready",
            Some(FaultKind::Protocol) => "malformed",
            Some(FaultKind::Illegal) | None => "illegal",
        },
        // The reason's word in an answer.
        _ => reason.word(),
    }
}

/// Plays game number `index`.
fn play(options: &TournamentOptions, index: usize) -> std::io::Result<Game> {
    // One INIT per pair of games.
    let mut rng = lockstep_search::seeds::item_rng(options.seed, index as u64 / 2);
    let init = random_init(&mut rng);
    let swapped = index % 2 == 1;
    let [a, b] = options.commands.clone();
    let commands = if swapped { [b, a] } else { [a, b] };
    let report = referee::referee_game(&RefereeOptions { commands, init }, &mut std::io::sink())?;
    let score = Score::of(report.outcome, usize::from(swapped));
    let reason = match report.outcome {
        Outcome::Ended(_, r) => classify(r, &report.failures),
        Outcome::Ongoing => "unfinished",
    };
    let [t1, t2] = report.time_used_ms;
    Ok(Game {
        init,
        swapped,
        score,
        reason,
        detail: report.reason,
        turns: report.turns,
        time_ms: if swapped { [t2, t1] } else { [t1, t2] },
    })
}

/// Every game, in game order, and how long the tournament took.
#[derive(Debug, Clone)]
pub struct TournamentReport {
    pub games: Vec<Game>,
    pub elapsed: Duration,
}

/// The 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    wilson_score(k as f64, n)
}

/// [`wilson`] for a score that may hold half points (a draw is half a
/// success): the formula needs only the rate `successes / n`.
pub fn wilson_score(successes: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let (n, p) = (n as f64, successes / n as f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

impl TournamentReport {
    pub fn count(&self, score: Score) -> usize {
        self.games.iter().filter(|g| g.score == score).count()
    }

    /// (median, max) of the total time program `which` (0 first, 1 second) used
    /// in a game, in ms.
    pub fn time(&self, which: usize) -> (u128, u128) {
        let mut t: Vec<u128> = self.games.iter().map(|g| g.time_ms[which]).collect();
        t.sort_unstable();
        if t.is_empty() {
            return (0, 0);
        }
        (t[(t.len() - 1) / 2], t[t.len() - 1])
    }

    /// The printed report.
    pub fn summary(&self, commands: &[String; 2]) -> String {
        let n = self.games.len();
        let [w, d, l] = [Score::Win, Score::Draw, Score::Loss].map(|s| self.count(s));
        let (lo, hi) = wilson(w, n);
        let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
        let mut out = format!(
            "games: {n} ({:.1} s)\np1: {}\np2: {}\np1 wins {w}, draws {d}, losses {l}\n\
             p1 win rate {:.1}% (95% Wilson interval {:.1}% .. {:.1}%)\n",
            self.elapsed.as_secs_f64(),
            commands[0],
            commands[1],
            pct(w),
            100.0 * lo,
            100.0 * hi
        );
        for (score, name) in [
            (Score::Win, "p1 wins"),
            (Score::Draw, "draws"),
            (Score::Loss, "p1 losses"),
        ] {
            let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
            for g in self.games.iter().filter(|g| g.score == score) {
                *reasons.entry(g.reason).or_default() += 1;
            }
            if !reasons.is_empty() {
                let list: Vec<String> = reasons.iter().map(|(r, k)| format!("{r} {k}")).collect();
                out.push_str(&format!("{name} by: {}\n", list.join(", ")));
            }
        }
        for (which, name) in [(0, "p1"), (1, "p2")] {
            let (median, max) = self.time(which);
            out.push_str(&format!(
                "{name} time per game: median {median} ms, max {max} ms\n"
            ));
        }
        let turns: Vec<u32> = self.games.iter().map(|g| u32::from(g.turns)).collect();
        let mean = turns.iter().sum::<u32>() as f64 / n.max(1) as f64;
        out.push_str(&format!("turns per game: mean {mean:.1}\n"));
        out
    }
}

/// Plays the tournament.
pub fn play_tournament(options: &TournamentOptions) -> std::io::Result<TournamentReport> {
    let start = Instant::now();
    let wins = AtomicUsize::new(0);
    let message = |seconds: f64, done: usize| {
        format!(
            "tournament: {done}/{} games, p1 won {}, {seconds:.0} s",
            options.games,
            wins.load(Ordering::Relaxed)
        )
    };
    let games = lockstep_search::jobs::for_each_index(
        options.jobs,
        |index| index < options.games as u64,
        |index| {
            let game = play(options, index as usize);
            if game.as_ref().is_ok_and(|g| g.score == Score::Win) {
                wins.fetch_add(1, Ordering::Relaxed);
            }
            game
        },
        options.progress.then_some(&message),
    );
    Ok(TournamentReport {
        games: games
            .into_iter()
            .map(|(_, game)| game)
            .collect::<std::io::Result<_>>()?,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests;
