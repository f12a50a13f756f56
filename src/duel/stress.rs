//! `lockstep duel stress`: a user's bot program against the built-in bots, through
//! the real referee, looking for protocol errors, illegal actions, timeouts and
//! crashes.
//!
//! Game `i` of a run pits the bot against `random` (even `i`) or `greedy` (odd
//! `i`), as player 1 or player 2 in turn, from a random INIT drawn from the seed and
//! `i`, so a failure can be replayed with `lockstep duel referee`. The first game in
//! which the bot breaks the protocol or the rules stops the run; its per-turn log is
//! printed and saved. Losing a game fairly is not a failure.

use super::referee::{self, FaultKind, GameReport, RefereeOptions};
use super::tournament::Score;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct DuelStressOptions {
    pub cmd: String,
    pub max_games: Option<u64>,
    pub seconds: f64,
    pub seed: u64,
    pub jobs: usize,
    pub progress: bool,
}

/// The first game the bot failed in.
#[derive(Debug, Clone)]
pub struct DuelFailure {
    pub game: u64,
    pub kind: FaultKind,
    pub message: String,
    /// The referee's command line that replays the game.
    pub replay: String,
    pub log: String,
}

#[derive(Debug, Clone, Default)]
pub struct DuelStressReport {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games the built-in opponent lost by failing (a lockstep bug).
    pub opponent_failures: u64,
    /// The bot's time used in each game, in milliseconds.
    pub time_used_ms: Vec<u128>,
    pub elapsed: Duration,
    pub failure: Option<DuelFailure>,
}

/// The summary `lockstep duel stress` prints on stdout: games, results, the
/// bot's time per game. (The failure, if any, goes to stderr with its log.)
impl std::fmt::Display for DuelStressReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "duel: {} games against random and greedy, {:.1} games/s: {} won, {} drawn, {} lost",
            self.games,
            self.games as f64 / self.elapsed.as_secs_f64().max(1e-9),
            self.wins,
            self.draws,
            self.losses
        )?;
        let mut times = self.time_used_ms.clone();
        times.sort_unstable();
        if let (Some(median), Some(max)) = (times.get(times.len() / 2), times.last()) {
            writeln!(
                f,
                "time used per game: median {median} ms, max {max} ms (of 1000)"
            )?;
        }
        if self.opponent_failures > 0 {
            writeln!(
                f,
                "the built-in opponent failed in {} games: a lockstep bug, please report it",
                self.opponent_failures
            )?;
        }
        Ok(())
    }
}

/// Spring, player 1's start, player 2's start.
use super::protocol::Init;

/// Game `index`'s setup: the opponent's strategy, the bot's side (0 or 1), INIT.
fn setup(seed: u64, index: u64) -> (&'static str, usize, Init) {
    let opponent = if index.is_multiple_of(2) {
        "random"
    } else {
        "greedy"
    };
    let side = ((index / 2) % 2) as usize;
    let init = super::tournament::random_init(&mut crate::seeds::item_rng(seed, index));
    (opponent, side, init)
}

/// One game played (`log` and `replay` only for a game the tested bot failed).
struct Played {
    side: usize,
    report: GameReport,
    log: String,
    replay: String,
}

/// Plays the games; `lockstep` is this binary, which runs the built-in bots. An
/// error means the bots could not be started at all.
pub fn stress_bot(
    options: &DuelStressOptions,
    lockstep: &Path,
) -> Result<DuelStressReport, String> {
    let start = Instant::now();
    let deadline = crate::seeds::deadline_after(start, options.seconds);
    let stop = AtomicBool::new(false);
    let start_error: Mutex<Option<String>> = Mutex::new(None);
    let message = |secs: f64, games: usize| {
        format!(
            "duel: {games} games, {:.1} games/s, {secs:.0} s",
            games as f64 / secs.max(1e-9)
        )
    };
    let results = crate::jobs::for_each_index(
        options.jobs,
        |index| {
            !stop.load(Ordering::Relaxed)
                && options.max_games.is_none_or(|m| index < m)
                && deadline.is_none_or(|d| Instant::now() < d)
        },
        |index| {
            let (opponent, side, init) = setup(options.seed, index);
            let builtin = format!(
                "{} duel bot --strategy {opponent} --seed {}",
                crate::process::quoted(lockstep),
                options.seed.wrapping_add(index)
            );
            let mut commands = [builtin.clone(), builtin];
            commands[side] = options.cmd.clone();
            let replay = format!(
                "lockstep duel referee --p1 {:?} --p2 {:?} --init \"{}\"",
                commands[0],
                commands[1],
                init.numbers()
            );
            let referee_options = RefereeOptions { commands, init };
            let mut log = Vec::new();
            let report = match referee::referee_game(&referee_options, &mut log) {
                Ok(report) => report,
                Err(e) => {
                    *start_error.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(format!("could not start the bots: {e}"));
                    stop.store(true, Ordering::Relaxed);
                    return None;
                }
            };
            // Only a failing game's log and replay are reported: the others are
            // not kept (a long run plays thousands).
            let failed = report.failures[side].is_some();
            if failed {
                stop.store(true, Ordering::Relaxed);
            }
            let (log, replay) = if failed {
                (String::from_utf8_lossy(&log).into_owned(), replay)
            } else {
                (String::new(), String::new())
            };
            Some(Played {
                side,
                report,
                log,
                replay,
            })
        },
        options.progress.then_some(&message),
    );

    if let Some(error) = start_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    let mut report = DuelStressReport {
        elapsed: start.elapsed(),
        ..DuelStressReport::default()
    };
    for (
        index,
        Played {
            side,
            report: game,
            log,
            replay,
        },
    ) in results
        .into_iter()
        .filter_map(|(index, played)| Some((index, played?)))
    {
        report.games += 1;
        report.time_used_ms.push(game.time_used_ms[side]);
        if game.failures[1 - side].is_some() {
            report.opponent_failures += 1;
        }
        match Score::of(game.outcome, side) {
            Score::Win => report.wins += 1,
            Score::Draw => report.draws += 1,
            Score::Loss => report.losses += 1,
        }
        if let (Some(failure), None) = (&game.failures[side], &report.failure) {
            report.failure = Some(DuelFailure {
                game: index,
                kind: failure.kind,
                message: failure.message.clone(),
                replay,
                log,
            });
        }
    }
    Ok(report)
}
