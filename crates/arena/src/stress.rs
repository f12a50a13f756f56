//! `lockstep duel stress`: a user's bot program against the built-in bots, through
//! the real referee, looking for protocol errors, illegal actions, timeouts and
//! crashes.
//!
//! Game `i` of a run pits the bot against `random` (even `i`) or `greedy` (odd
//! `i`), as player 1 or player 2 in turn, from a random INIT drawn from the seed and
//! `i`, so a failure can be replayed with `lockstep duel referee`. The first game in
//! which the bot breaks the protocol or the rules stops the run; its per-turn log is
//! printed and saved. Losing a game fairly is not a failure.

use super::referee::{self, FaultKind, RefereeOptions};
use super::tournament::Score;
use lockstep_search::{Address, CaseSource, Check, Checked, Made, Plan};
use std::path::Path;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct DuelStressOptions {
    /// The search: the seed of the INITs, time, games, jobs (a bot's
    /// failure is not shrunk: a game is replayed as it was).
    pub plan: Plan,
    /// The bot's command.
    pub cmd: String,
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
pub struct DuelStressOutcome {
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
impl std::fmt::Display for DuelStressOutcome {
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
    let init = super::tournament::random_init(&mut lockstep_search::seeds::item_rng(seed, index));
    (opponent, side, init)
}

/// The check of a bot's stress: one game through the referee; a game the
/// bot fails is a failure, its log and the command that replays it kept.
struct Games<'a> {
    options: &'a DuelStressOptions,
    /// This binary, which runs the built-in bots.
    lockstep: &'a Path,
}

/// What the games add up to.
#[derive(Default)]
struct Results {
    wins: u64,
    draws: u64,
    losses: u64,
    opponent_failures: u64,
    time_used_ms: Vec<u128>,
}

impl lockstep_search::Tally for Results {
    fn add(&mut self, other: Results) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.opponent_failures += other.opponent_failures;
        self.time_used_ms.extend(other.time_used_ms);
    }
}

impl Check<u64> for Games<'_> {
    type Found = DuelFailure;
    type Tally = Results;

    fn check(
        &self,
        games: Vec<(Address, u64)>,
        results: &mut Results,
        out: &mut Vec<Checked<DuelFailure>>,
    ) {
        for (_, index) in games {
            out.push(self.play(index, results));
        }
    }

    type Kind = FaultKind;

    fn kind(&self, found: &DuelFailure) -> FaultKind {
        found.kind
    }

    fn progress(&self, c: &lockstep_search::Counts, secs: f64) -> String {
        format!(
            "duel: {} games, {:.1} games/s, {secs:.0} s",
            c.cases,
            c.cases as f64 / secs.max(1e-9)
        )
    }
}

impl Games<'_> {
    /// Plays game `index`, adding its result to `results`.
    fn play(&self, index: u64, results: &mut Results) -> Checked<DuelFailure> {
        let options = self.options;
        let seed = options.plan.seed;
        let (opponent, side, init) = setup(seed, index);
        let builtin = format!(
            "{} duel bot --strategy {opponent} --seed {}",
            lockstep_process::quoted(self.lockstep),
            seed.wrapping_add(index)
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
        let game = match referee::referee_game(&referee_options, &mut log) {
            Ok(game) => game,
            Err(e) => return Checked::Problem(format!("could not start the bots: {e}")),
        };
        results.time_used_ms.push(game.time_used_ms[side]);
        if game.failures[1 - side].is_some() {
            results.opponent_failures += 1;
        }
        match Score::of(game.outcome, side) {
            Score::Win => results.wins += 1,
            Score::Draw => results.draws += 1,
            Score::Loss => results.losses += 1,
        }
        // Only a failing game's log and replay are reported: the others are
        // not kept (a long run plays thousands).
        match &game.failures[side] {
            Some(failure) => Checked::Fail(DuelFailure {
                game: index,
                kind: failure.kind,
                message: failure.message.clone(),
                replay,
                log: String::from_utf8_lossy(&log).into_owned(),
            }),
            None => Checked::Pass,
        }
    }
}

/// Game numbers 0, 1, 2, ...: the games of a bot's stress.
struct GameNumbers;

impl CaseSource for GameNumbers {
    type Case = u64;

    fn cases(&self, positions: std::ops::Range<u64>, out: &mut Vec<(u64, Made<u64>)>) {
        out.extend(positions.map(|n| (n, Made::Case(n))));
    }

    fn address(&self, position: u64) -> Address {
        Address::Game(position)
    }

    fn position(&self, address: &Address) -> Option<u64> {
        match *address {
            Address::Game(n) => Some(n),
            _ => None,
        }
    }
}

/// Why a bot stress could not play: the bots could not be started (the
/// words say which, and why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotsDidNotStart(pub String);

impl std::fmt::Display for BotsDidNotStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BotsDidNotStart {}

/// Plays the games; `lockstep` is this binary, which runs the built-in bots. An
/// error means the bots could not be started at all.
pub fn stress_bot(
    options: &DuelStressOptions,
    lockstep: &Path,
) -> Result<DuelStressOutcome, BotsDidNotStart> {
    let outcome =
        lockstep_search::search(&options.plan, &GameNumbers, &Games { options, lockstep });
    if let Some((_, problem)) = outcome.problem {
        return Err(BotsDidNotStart(problem));
    }
    let results = outcome.tally;
    Ok(DuelStressOutcome {
        games: outcome.counts.cases,
        wins: results.wins,
        draws: results.draws,
        losses: results.losses,
        opponent_failures: results.opponent_failures,
        time_used_ms: results.time_used_ms,
        elapsed: outcome.elapsed,
        failure: outcome.failures.into_iter().next().map(|f| f.found),
    })
}
