//! The duel commands: an interactive game has more to it than a judge input
//! and output (step lines, the referee, bots, tournaments, the ladder, bot
//! stress), so `lockstep duel` is a group of its own.
//!
//! Bots may be source files, compiled as any program flag's, but a duel
//! applies no language time multiplier. The 1000 ms budget is a rule of the
//! game, not a judge's limit: each TURN line tells a bot the time it has
//! left, and a bot out of time loses. Scaled per language, a Python bot
//! would get three times its C++ opponent's time in the same game, and the
//! game would no longer be the statement's; arenas of such games give
//! every language the same time for that reason.

use super::common::{default_jobs, lookup, LengthFlags};
use super::judged::ProgramFlags;
use super::values::{at_least_one, named_command, non_empty_command, seed_number, thread_count};
use super::Exit;
use anyhow::{bail, Context, Result};
use lockstep_arena::bots::{self, Strategy};
use lockstep_arena::protocol::Init;
use lockstep_arena::{ladder, referee, stress as bot_stress, tournament};
use lockstep_core::duel::{Outcome, Winner};
use lockstep_search::seeds::{fresh_seed, SplitMix64};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct DuelArgs {
    #[command(subcommand)]
    command: DuelCommand,
}

impl DuelArgs {
    /// Whether the command starts bot programs (see `Command::runs_programs`).
    pub(super) fn runs_programs(&self) -> bool {
        !matches!(self.command, DuelCommand::Step(_) | DuelCommand::Bot(_))
    }
}

#[derive(clap::Subcommand, Debug)]
enum DuelCommand {
    /// `duel step` lines on stdin (one case a line), one answer line each on stdout.
    Step(StepArgs),
    /// Run a game between two bot programs and print the result (a command with
    /// shell syntax runs through `sh -c`, others directly).
    Referee(RefereeArgs),
    /// Many games between two programs through the referee: wins, draws and
    /// losses of --p1's program with a 95% interval, reasons, time per game.
    Tournament(TournamentArgs),
    /// Every built-in strategy and every --cmd bot against every other, on the
    /// same INITs with the sides swapped: scores with 95% intervals, ratings,
    /// endings and times
    Ladder(LadderArgs),
    /// Your bot program against the built-in random and greedy bots through
    /// the referee: a timeout, crash, malformed answer or illegal list stops
    /// the run and saves the game's log; losing fairly is not a failure
    Stress(BotStressArgs),
    /// A built-in bot speaking the protocol on stdin/stdout.
    Bot(BotArgs),
}

#[derive(clap::Args, Debug)]
struct StepArgs {
    /// Use the naive reference resolver instead of the fast core.
    #[arg(long)]
    reference: bool,
}

#[derive(clap::Args, Debug)]
struct RefereeArgs {
    /// Player 1's command, or a source file (compiled once into the cache:
    /// `lockstep languages`). Every bot has the game's 1000 ms, whatever its
    /// language: duels take no time multiplier.
    #[arg(long, value_parser = non_empty_command)]
    p1: String,
    /// Player 2's command, or a source file (no time multiplier either).
    #[arg(long, value_parser = non_empty_command)]
    p2: String,
    /// Seed for a random INIT (default: a fresh one, printed on stderr).
    #[arg(long, conflicts_with = "init", value_parser = seed_number)]
    seed: Option<u64>,
    /// A fixed INIT: "OR OC R1 C1 R2 C2".
    #[arg(long, value_parser = init_numbers)]
    init: Option<Init>,
    /// Write a per-turn log (states, actions, events, time used) to this file.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Draw the yard after every turn.
    #[arg(long)]
    render: bool,
}

/// `--init "OR OC R1 C1 R2 C2"`, read as the INIT line the bots will receive.
fn init_numbers(text: &str) -> Result<Init, String> {
    let init: Init = format!("INIT {text}")
        .parse()
        .ok()
        .filter(|i: &Init| {
            [i.spring, i.p1, i.p2]
                .into_iter()
                .all(lockstep_core::duel::inside)
        })
        .ok_or_else(|| format!("{text:?}: expected six numbers 1..=7 (OR OC R1 C1 R2 C2)"))?;
    if init.p1 == init.p2 {
        return Err(format!(
            "{text:?}: the players must start on different cells"
        ));
    }
    Ok(init)
}

#[derive(clap::Args, Debug)]
struct TournamentArgs {
    /// The program whose results are reported (a command, or a source file;
    /// no time multiplier: every bot has the game's 1000 ms).
    #[arg(long, value_parser = non_empty_command)]
    p1: String,
    /// Its opponent (a command, or a source file).
    #[arg(long, value_parser = non_empty_command)]
    p2: String,
    /// Games, in pairs on one random INIT with the sides swapped.
    #[arg(long, default_value_t = 100, value_parser = at_least_one)]
    games: u64,
    #[command(flatten)]
    games_at_once: GamesAtOnce,
}

#[derive(clap::Args, Debug)]
struct LadderArgs {
    /// A bot of yours, as NAME=COMMAND (repeatable), e.g. `--cmd mine=./bot`;
    /// the command may be a source file, e.g. `--cmd mine=bot.cpp` (no time
    /// multiplier: every bot has the game's 1000 ms)
    #[arg(long = "cmd", value_parser = named_command)]
    cmds: Vec<(String, String)>,
    /// Built-in strategies to enter (default: all of them)
    #[arg(long, value_enum, value_delimiter = ',')]
    strategies: Vec<Strategy>,
    /// Games per pair, in pairs on one random INIT with the sides swapped
    #[arg(long, default_value_t = 20, value_parser = at_least_one)]
    games: u64,
    #[command(flatten)]
    games_at_once: GamesAtOnce,
}

/// How a tournament or a ladder plays its games: how many at once, and the
/// seed of their INITs.
#[derive(clap::Args, Debug)]
struct GamesAtOnce {
    /// Games at once (each game runs two bot processes).
    #[arg(long, default_value_t = 1, value_parser = thread_count)]
    jobs: usize,
    /// Seed for the INITs (default: a fresh one, printed).
    #[arg(long, value_parser = seed_number)]
    seed: Option<u64>,
}

#[derive(clap::Args, Debug)]
struct BotStressArgs {
    /// Your bot's command (shell syntax runs through `sh -c`), or a source
    /// file (compiled once into the cache: `lockstep languages`; no time
    /// multiplier: the bot has the game's 1000 ms in any language)
    #[arg(long, value_parser = non_empty_command)]
    cmd: String,
    /// Stop after this many games
    #[arg(long, value_parser = at_least_one)]
    games: Option<u64>,
    /// Stop after this many seconds (default 30 when --games is not given)
    #[arg(long, value_parser = super::values::positive_seconds)]
    seconds: Option<f64>,
    /// Time for the start-up check, in milliseconds: the bot runs once on an
    /// empty input to show that it starts
    #[arg(long, default_value_t = 2000, value_parser = at_least_one)]
    startup_ms: u64,
    /// Seed for the INITs (default: a fresh one, printed)
    #[arg(long, value_parser = seed_number)]
    seed: Option<u64>,
    /// Games at once; the default is this machine's cores
    #[arg(long, default_value_t = default_jobs(), value_parser = thread_count)]
    jobs: usize,
    /// Play only this game, as a report names it (`game 12`), under --seed
    #[arg(long, value_name = "ADDRESS")]
    case: Option<lockstep_search::Address>,
    /// Where to save the failing game's log
    #[arg(long, default_value = "lockstep-stress-duel.log")]
    save: PathBuf,
}

#[derive(clap::Args, Debug)]
struct BotArgs {
    /// How the bot chooses its actions.
    #[arg(long, value_enum, default_value_t = Strategy::Mixed)]
    strategy: Strategy,
    /// With `--strategy exploit`: the built-in strategy it plays a best reply
    /// to (default: mixed).
    #[arg(long, value_enum)]
    target: Option<Strategy>,
    /// Seed for its random choices (default: from the clock).
    #[arg(long, value_parser = seed_number)]
    seed: Option<u64>,
}

pub(super) fn duel(args: DuelArgs) -> Result<Exit> {
    match args.command {
        DuelCommand::Step(args) => duel_step(args),
        DuelCommand::Stress(args) => duel_stress(args),
        DuelCommand::Bot(args) => duel_bot(args),
        DuelCommand::Tournament(args) => duel_tournament(args),
        DuelCommand::Ladder(args) => duel_ladder(args),
        DuelCommand::Referee(args) => duel_referee(args),
    }
}

/// `duel bot`: a built-in bot on stdin and stdout.
fn duel_bot(args: BotArgs) -> Result<Exit> {
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let brain = match (args.strategy, args.target) {
        (Strategy::Exploit, target) => {
            let target = target.unwrap_or(Strategy::Mixed);
            bots::Brain::exploiting(target, seed).with_context(|| {
                format!(
                    "--target {}: an exploiter cannot model another exploiter",
                    target.name()
                )
            })?
        }
        (_, Some(_)) => bail!("--target is for --strategy exploit only"),
        (strategy, None) => bots::Brain::new(strategy, seed),
    };
    bots::play(brain, std::io::stdin().lock(), std::io::stdout().lock())?;
    Ok(Exit::Clean)
}

/// `duel step`: one answer line for each step line, written as soon as the line
/// is read, so that a program can drive it line by line. A malformed line is
/// one error naming it (exit 2), after the answers to the lines before it.
fn duel_step(args: StepArgs) -> Result<Exit> {
    use std::io::BufRead;
    let entry = lookup("duel")?;
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    let mut any = false;
    for (index, line) in stdin.lines().enumerate() {
        let line = line.context("reading stdin (step lines must be UTF-8 text)")?;
        if line.trim().is_empty() {
            continue;
        }
        any = true;
        match entry.solve(&line, args.reference) {
            Ok(answer) => {
                stdout.write_all(answer.as_bytes())?;
                stdout.flush()?;
            }
            Err(mut e) => {
                e.line = index + 1;
                errln!("error: {e}");
                return Ok(Exit::Error);
            }
        }
    }
    if !any {
        // What the judge-format reader says of an empty input.
        if let Err(e) = entry.solve("", args.reference) {
            errln!("error: {e}");
            return Ok(Exit::Error);
        }
    }
    Ok(Exit::Clean)
}

fn duel_stress(args: BotStressArgs) -> Result<Exit> {
    super::output::check_can_write(&args.save, "--save")?;
    let cmd = ProgramFlags::new().runnable("--cmd", &args.cmd)?.command;
    let startup = lockstep_process::Resources::new(
        std::time::Duration::from_millis(args.startup_ms),
        lockstep_process::DEFAULT_OUTPUT_LIMIT,
    );
    if let Err(message) = lockstep_judge::check_command(&cmd, startup) {
        bail!("{message}");
    }
    lockstep_search::Address::check_kind(args.case.as_ref(), lockstep_search::Address::Game(0))
        .map_err(anyhow::Error::msg)?;
    let length = LengthFlags {
        cases: args.games,
        seconds: args.seconds,
    };
    let options = bot_stress::DuelStressOptions {
        plan: lockstep_search::Plan {
            seed: args.seed.unwrap_or_else(fresh_seed),
            seconds: length.seconds(),
            max_cases: args.games,
            jobs: args.jobs,
            progress: true,
            keep_going: false,
            shrink: lockstep_harness::shrink::DIFFERENTIAL_BUDGET,
            shard: lockstep_search::Shard::WHOLE,
            only: args.case,
            enumerate: None,
        },
        cmd,
    };
    let plan = &options.plan;
    errln!(
        "lockstep duel stress: seed {}, {} (repeat with --seed {} --jobs {})",
        plan.seed,
        lockstep_text::counted(plan.jobs as u64, "job"),
        plan.seed,
        plan.jobs
    );
    let exe =
        std::env::current_exe().context("finding the lockstep binary for the built-in bots")?;
    let report = bot_stress::stress_bot(&options, &exe).map_err(anyhow::Error::msg)?;
    out!("{report}");
    let Some(failure) = report.failure else {
        return Ok(Exit::Clean);
    };
    errln!(
        "\ngame {}: the bot lost by {}: it {}\nreplay: {}\nlog:\n{}",
        failure.game,
        failure.kind,
        failure.message,
        failure.replay,
        failure.log
    );
    match std::fs::write(&args.save, &failure.log) {
        Ok(()) => errln!("saved the game log to {}", args.save.display()),
        Err(e) => errln!(
            "could not save the game log to {}: {e} (it is printed above)",
            args.save.display()
        ),
    }
    Ok(Exit::Found)
}

fn duel_tournament(args: TournamentArgs) -> Result<Exit> {
    let seed = args.games_at_once.seed.unwrap_or_else(fresh_seed);
    errln!("lockstep duel tournament: seed {seed}");
    let mut flags = ProgramFlags::new();
    let options = tournament::TournamentOptions {
        commands: [
            flags.runnable("--p1", &args.p1)?.command,
            flags.runnable("--p2", &args.p2)?.command,
        ],
        games: args.games as usize,
        jobs: args.games_at_once.jobs,
        seed,
        progress: true,
    };
    let report = tournament::play_tournament(&options).context("starting the bots")?;
    out!("{}", report.summary(&options.commands));
    Ok(Exit::Clean)
}

fn duel_ladder(args: LadderArgs) -> Result<Exit> {
    let seed = args.games_at_once.seed.unwrap_or_else(fresh_seed);
    errln!("lockstep duel ladder: seed {seed} (repeat with --seed {seed})");
    let exe =
        std::env::current_exe().context("finding the lockstep binary for the built-in bots")?;
    let exe = lockstep_process::quoted(&exe);
    let strategies = if args.strategies.is_empty() {
        Strategy::ALL.to_vec()
    } else {
        args.strategies
    };
    let mut entries: Vec<(String, ladder::BotCommand)> = Vec::new();
    // The exploiter meets every built-in it can model, each as its target.
    let targets: Vec<String> = (strategies.iter())
        .filter(|s| s.exploitable())
        .map(|s| s.name().to_string())
        .collect();
    for s in strategies.iter().copied() {
        if entries.iter().all(|(name, _)| name != s.name()) {
            let cmd = format!("{exe} duel bot --strategy {} --seed {seed}", s.name());
            let command = if s == Strategy::Exploit {
                ladder::BotCommand::Replying {
                    template: format!("{cmd} --target {{target}}"),
                    targets: targets.clone(),
                }
            } else {
                ladder::BotCommand::Fixed(cmd)
            };
            entries.push((s.name().to_string(), command));
        }
    }
    let mut flags = ProgramFlags::new();
    for (name, cmd) in args.cmds {
        if entries.iter().any(|(taken, _)| *taken == name) {
            bail!("--cmd {name}=...: the name {name:?} is taken");
        }
        let cmd = flags.runnable(&format!("--cmd {name}="), &cmd)?.command;
        entries.push((name, ladder::BotCommand::Fixed(cmd)));
    }
    if entries.len() < 2 {
        bail!("a ladder needs at least two bots");
    }
    let options = ladder::LadderOptions {
        bots: entries,
        games: args.games as usize,
        jobs: args.games_at_once.jobs,
        seed,
        progress: true,
    };
    let report = ladder::play_ladder(&options).context("starting the bots")?;
    out!("{}", report.table());
    Ok(Exit::Clean)
}

fn duel_referee(args: RefereeArgs) -> Result<Exit> {
    let init = match args.init {
        Some(init) => init,
        None => {
            let seed = args.seed.unwrap_or_else(fresh_seed);
            errln!("lockstep duel referee: seed {seed}");
            tournament::random_init(&mut SplitMix64::new(seed))
        }
    };
    let mut flags = ProgramFlags::new();
    let options = referee::RefereeOptions {
        commands: [
            flags.runnable("--p1", &args.p1)?.command,
            flags.runnable("--p2", &args.p2)?.command,
        ],
        init,
    };
    let mut sink: Box<dyn Write> = match &args.log {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        )),
        None => Box::new(std::io::sink()),
    };
    let mut stdout = std::io::stdout();
    let board: Option<&mut dyn Write> = if args.render { Some(&mut stdout) } else { None };
    let report =
        referee::referee_drawing(&options, &mut sink, board).context("starting the bots")?;
    sink.flush()?;
    let winner = match report.outcome {
        Outcome::Ended(w, _) => match w {
            Winner::P1 => "p1 wins",
            Winner::P2 => "p2 wins",
            Winner::Draw => "draw",
        },
        Outcome::Ongoing => "unfinished",
    };
    outln!("result: {winner}");
    outln!("reason: {}", report.reason);
    outln!(
        "turns: {}; time used: p1 {} ms, p2 {} ms; referee overhead per turn: mean {:.1} us, max {:.1} us",
        report.turns,
        report.time_used_ms[0],
        report.time_used_ms[1],
        report.overhead_us.0,
        report.overhead_us.1
    );
    Ok(Exit::Clean)
}
