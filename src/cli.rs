//! The `lockstep` command line: argument parsing, output, and exit codes.
//!
//! Exit codes: 0 when all is well; 1 when lockstep found something (a disagreement,
//! a failing corpus row); 2 when it could not do its job (bad arguments, unreadable
//! input, I/O errors). Errors are one line on stderr.

use crate::bench::BenchOptions;
use crate::campaign::CampaignOptions;
use crate::corpus;
use crate::puzzle::Encoding;
use crate::puzzles::{self, Entry};
use crate::seeds::fresh_seed;
use crate::stress::{Oracle, StressOptions};
use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use std::io::{Read, Write};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "lockstep",
    version,
    about = "Differential fuzzing of fast puzzle solvers against naive references",
    after_help = "Puzzles: robots, new-game2, footholds, checkers, duel, duel-search. Exit codes: 0 ok, 1 something found (disagreement, failing row), 2 error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve one judge input from stdin, writing the judge output to stdout.
    Solve {
        /// The puzzle, e.g. new-game2.
        puzzle: String,
        /// Use the naive reference solver instead of the fast core.
        #[arg(long)]
        reference: bool,
    },
    /// Differential fuzzing: run core and reference on generated cases (the main job).
    Fuzz {
        /// Puzzles to fuzz (default: all).
        puzzles: Vec<String>,
        /// Total time budget in seconds, shared evenly by the puzzles.
        #[arg(long, default_value_t = 30.0)]
        seconds: f64,
        /// Seed for the generated cases (default: a fresh one, printed).
        #[arg(long)]
        seed: Option<u64>,
        /// Parallel jobs (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Stop each puzzle after this many cases, even with time left.
        #[arg(long)]
        cases: Option<u64>,
        /// Corpus directory that findings are appended to.
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// Report findings without appending them to the corpus.
        #[arg(long)]
        no_append: bool,
        /// Also count how many cases reach each rule branch (rare pushes, teleports,
        /// tie-breaks, ...), for puzzles that report them.
        #[arg(long)]
        stats: bool,
    },
    /// Replay every corpus row through core and reference.
    Replay {
        /// Puzzles to replay (default: all).
        puzzles: Vec<String>,
        #[arg(long)]
        corpus: Option<PathBuf>,
    },
    /// Shrink a diverging case (judge text or a cargo-fuzz artifact) and print its CSV row.
    Shrink {
        puzzle: String,
        file: PathBuf,
        /// Read the file as judge text.
        #[arg(long, conflicts_with = "bytes")]
        text: bool,
        /// Read the file as raw fuzzer bytes (a cargo-fuzz artifact).
        #[arg(long)]
        bytes: bool,
        /// Also append the row to the corpus.
        #[arg(long)]
        append: bool,
        #[arg(long)]
        corpus: Option<PathBuf>,
    },
    /// Test your own solution program against the oracle; shrink its first failure.
    Stress {
        /// The puzzle (robots, new-game2, footholds, checkers, duel-search; duel
        /// plays a bot program against the built-in bots through the referee).
        puzzle: String,
        /// The program: judge input on its stdin, judge output expected on stdout.
        #[arg(long)]
        cmd: String,
        /// Stop after this many cases (for duel: games).
        #[arg(long, conflicts_with = "seconds")]
        cases: Option<u64>,
        /// Stop after this many seconds (default 30 when --cases is not given).
        #[arg(long)]
        seconds: Option<f64>,
        /// Time limit per run of the program, in milliseconds [default: 2000].
        #[arg(long)]
        timeout_ms: Option<u64>,
        #[arg(long)]
        seed: Option<u64>,
        /// Programs run at once (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Which solver gives the expected answers.
        #[arg(long, value_enum, default_value_t = OracleArg::Core)]
        oracle: OracleArg,
        /// Where to save the minimal failing input.
        #[arg(long)]
        save: Option<PathBuf>,
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// Do not append the failure to the corpus.
        #[arg(long)]
        no_append: bool,
    },
    /// Cases per second of core and reference on the same cases, and their ratio.
    Bench {
        /// Puzzles to measure (default: all).
        puzzles: Vec<String>,
        /// Cases per round.
        #[arg(long, default_value_t = 2000)]
        cases: usize,
        /// Rounds; medians are reported.
        #[arg(long, default_value_t = 7)]
        rounds: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Cherry Blossom Duel: the `duel step` oracle, the referee, the built-in bots.
    Duel {
        #[command(subcommand)]
        command: DuelCommand,
    },
    /// Checkers perft from the standard start: one line `depth nodes` per depth 1..=N
    /// (timings on stderr).
    Perft {
        /// The deepest ply counted.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Count with the naive reference instead of the bitboard core.
        #[arg(long)]
        reference: bool,
        /// Threads for the core (default: the number of cores).
        #[arg(long)]
        threads: Option<usize>,
    },
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum OracleArg {
    /// The fast core (checked against the reference by `lockstep fuzz`).
    Core,
    /// The naive reference (slower; cases it cannot finish are skipped).
    Reference,
}

#[derive(Subcommand, Debug)]
enum DuelCommand {
    /// `duel step` lines on stdin (one case a line), one answer line each on stdout.
    Step {
        /// Use the naive reference resolver instead of the fast core.
        #[arg(long)]
        reference: bool,
    },
    /// Run a game between two bot programs (`sh -c CMD`) and print the result.
    Referee {
        /// Player 1's command.
        #[arg(long)]
        p1: String,
        /// Player 2's command.
        #[arg(long)]
        p2: String,
        /// Seed for a random INIT (default: a fresh one, printed on stderr).
        #[arg(long, conflicts_with = "init")]
        seed: Option<u64>,
        /// A fixed INIT: "OR OC R1 C1 R2 C2".
        #[arg(long)]
        init: Option<String>,
        /// Write a per-turn log (states, actions, events, time used) to this file.
        #[arg(long)]
        log: Option<PathBuf>,
        /// Draw the yard after every turn.
        #[arg(long)]
        render: bool,
    },
    /// Many games between two programs through the referee: wins, draws and
    /// losses of --p1's program with a 95% interval, reasons, time per game.
    Tournament {
        /// The program whose results are reported.
        #[arg(long)]
        p1: String,
        /// Its opponent.
        #[arg(long)]
        p2: String,
        /// Games, in pairs on one random INIT with the sides swapped.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Games at once (default: 1; each game runs two bot processes).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Seed for the INITs (default: a fresh one, printed).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// A built-in bot speaking the protocol on stdin/stdout.
    Bot {
        #[arg(long, value_enum, default_value_t = StrategyArg::Search)]
        strategy: StrategyArg,
        /// Seed for its random choices (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
    },
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum StrategyArg {
    /// Depth-one maximin over the turn's matrix game (core's search), within its time.
    Search,
    /// Uniform over the legal action lists.
    Random,
    /// One turn of lookahead against a waiting opponent.
    Greedy,
}

/// Runs the command line; returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return 0;
            }
            eprintln!("error: {e:#}");
            2
        }
    }
}

fn pick(names: &[String]) -> Result<Vec<&'static dyn Entry>> {
    if names.is_empty() {
        return Ok(puzzles::all().to_vec());
    }
    names.iter().map(|name| lookup(name)).collect()
}

fn lookup(name: &str) -> Result<&'static dyn Entry> {
    puzzles::find(name).with_context(|| {
        let known: Vec<&str> = puzzles::all().iter().map(|e| e.name()).collect();
        format!("unknown puzzle {name:?} (known: {})", known.join(", "))
    })
}

/// `./corpus` when it exists, else the corpus of the source tree lockstep was
/// built from, else `./corpus` (created on the first finding).
fn corpus_dir(given: Option<PathBuf>) -> PathBuf {
    if let Some(dir) = given {
        return dir;
    }
    let here = PathBuf::from("corpus");
    if here.is_dir() {
        return here;
    }
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    if built.is_dir() {
        built
    } else {
        here
    }
}

fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Solve { puzzle, reference } => solve(lookup(&puzzle)?, reference),
        Command::Fuzz {
            puzzles,
            seconds,
            seed,
            jobs,
            cases,
            corpus,
            no_append,
            stats,
        } => {
            let entries = pick(&puzzles)?;
            if !(seconds.is_finite() && seconds >= 0.0) {
                bail!("--seconds must be a non-negative number, found {seconds}");
            }
            let options = CampaignOptions {
                seconds: seconds / entries.len() as f64,
                seed: seed.unwrap_or_else(fresh_seed),
                jobs: jobs.unwrap_or_else(default_jobs).max(1),
                max_cases: cases,
                progress: true,
                stats,
            };
            let dir = (!no_append).then(|| corpus_dir(corpus));
            fuzz(&entries, &options, dir)
        }
        Command::Replay { puzzles, corpus } => replay(&pick(&puzzles)?, &corpus_dir(corpus)),
        Command::Shrink {
            puzzle,
            file,
            text,
            bytes,
            append,
            corpus,
        } => {
            let entry = lookup(&puzzle)?;
            let data =
                std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
            let encoding = match (text, bytes) {
                (true, _) => Encoding::Text,
                (_, true) => Encoding::Bytes,
                _ => Encoding::Auto,
            };
            let summary = match entry.shrink(&data, encoding) {
                Ok(summary) => summary,
                Err(message) => bail!("{}: {message}", file.display()),
            };
            eprintln!("{}", summary.report);
            print!("{}", corpus::row_to_csv(&summary.row));
            if append {
                report_append(entry, &corpus_dir(corpus), summary.row)?;
            }
            // A disagreement was found and shrunk: "something found".
            Ok(1)
        }
        Command::Stress {
            puzzle,
            cmd,
            cases,
            seconds,
            timeout_ms,
            seed,
            jobs,
            oracle,
            save,
            corpus,
            no_append,
        } => {
            let entry = lookup(&puzzle)?;
            if let Some(s) = seconds {
                if !(s.is_finite() && s >= 0.0) {
                    bail!("--seconds must be a non-negative number, found {s}");
                }
            }
            if let Err(message) = crate::stress::check_command(&cmd) {
                bail!("{message}");
            }
            let seconds = seconds.unwrap_or(if cases.is_some() { f64::INFINITY } else { 30.0 });
            let seed = seed.unwrap_or_else(fresh_seed);
            let jobs = jobs.unwrap_or_else(default_jobs).max(1);
            if entry.played_through_referee() {
                // A bot is judged by the referee's own rules: a per-case time limit,
                // an oracle and a corpus row do not apply.
                let ignored = [
                    ("--timeout-ms", timeout_ms.is_some()),
                    ("--oracle", !matches!(oracle, OracleArg::Core)),
                    ("--corpus", corpus.is_some()),
                    ("--no-append", no_append),
                ];
                if let Some((flag, _)) = ignored.iter().find(|(_, given)| *given) {
                    bail!(
                        "{flag} does not apply to `stress {}` (the referee's 1000 ms budget and rules judge the bot)",
                        entry.name()
                    );
                }
                let options = crate::duel::stress::DuelStressOptions {
                    cmd,
                    max_games: cases,
                    seconds,
                    seed,
                    jobs,
                    progress: true,
                };
                let save = save.unwrap_or_else(|| PathBuf::from("lockstep-stress-duel.log"));
                return stress_duel(&options, &save);
            }
            let options = StressOptions {
                cmd,
                max_cases: cases,
                seconds,
                timeout: std::time::Duration::from_millis(timeout_ms.unwrap_or(2000).max(1)),
                seed,
                jobs,
                oracle: match oracle {
                    OracleArg::Core => Oracle::Core,
                    OracleArg::Reference => Oracle::Reference,
                },
                progress: true,
            };
            let save = save.unwrap_or_else(|| {
                PathBuf::from(format!("lockstep-stress-{}.txt", entry.module()))
            });
            let dir = (!no_append).then(|| corpus_dir(corpus));
            stress(entry, &options, &save, dir)
        }
        Command::Bench {
            puzzles,
            cases,
            rounds,
            seed,
        } => {
            let options = BenchOptions {
                cases: cases.max(1),
                rounds,
                seed,
            };
            bench(&pick(&puzzles)?, &options)
        }
        Command::Duel { command } => duel(command),
        Command::Perft {
            depth,
            reference,
            threads,
        } => perft(
            depth,
            reference,
            threads.unwrap_or_else(default_jobs).max(1),
        ),
    }
}

/// The duel commands are duel's own: an interactive game has more to it than a
/// judge input and output.
fn duel(command: DuelCommand) -> Result<i32> {
    use crate::duel::{bots, referee, tournament};
    use crate::seeds::SplitMix64;
    match command {
        DuelCommand::Step { reference } => solve(lookup("duel")?, reference),
        DuelCommand::Bot { strategy, seed } => {
            let strategy = match strategy {
                StrategyArg::Search => bots::Strategy::Search,
                StrategyArg::Random => bots::Strategy::Random,
                StrategyArg::Greedy => bots::Strategy::Greedy,
            };
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            bots::play(strategy, seed.unwrap_or_else(fresh_seed), stdin, stdout)?;
            Ok(0)
        }
        DuelCommand::Tournament {
            p1,
            p2,
            games,
            jobs,
            seed,
        } => {
            if games == 0 {
                bail!("--games must be at least 1");
            }
            let seed = seed.unwrap_or_else(fresh_seed);
            eprintln!("lockstep duel tournament: seed {seed}");
            let options = tournament::TournamentOptions {
                commands: [p1, p2],
                games,
                jobs: jobs.max(1),
                seed,
                progress: true,
            };
            let report = tournament::run(&options).context("starting the bots")?;
            print!("{}", report.summary(&options.commands));
            Ok(0)
        }
        DuelCommand::Referee {
            p1,
            p2,
            seed,
            init,
            log,
            render,
        } => {
            let init = match init {
                Some(text) => {
                    let v: Vec<i8> = text
                        .split_whitespace()
                        .map(|t| t.parse().ok().filter(|v| (1..=7).contains(v)))
                        .collect::<Option<_>>()
                        .with_context(|| format!("--init {text:?}: expected six numbers 1..=7"))?;
                    if v.len() != 6 {
                        bail!("--init {text:?}: expected six numbers 1..=7 (OR OC R1 C1 R2 C2)");
                    }
                    if (v[2], v[3]) == (v[4], v[5]) {
                        bail!("--init {text:?}: the players must start on different cells");
                    }
                    ((v[0], v[1]), (v[2], v[3]), (v[4], v[5]))
                }
                None => {
                    let seed = seed.unwrap_or_else(fresh_seed);
                    eprintln!("lockstep duel referee: seed {seed}");
                    tournament::random_init(&mut SplitMix64::new(seed))
                }
            };
            let options = referee::RefereeOptions {
                commands: [p1, p2],
                init,
                render,
            };
            let mut sink: Box<dyn Write> = match &log {
                Some(path) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(path)
                        .with_context(|| format!("creating {}", path.display()))?,
                )),
                None => Box::new(std::io::sink()),
            };
            let report = referee::run(&options, &mut sink).context("starting the bots")?;
            sink.flush()?;
            let winner = match report.outcome {
                lockstep_core::duel::Outcome::Ended(w, _) => match w {
                    lockstep_core::duel::Winner::P1 => "p1 wins",
                    lockstep_core::duel::Winner::P2 => "p2 wins",
                    lockstep_core::duel::Winner::Draw => "draw",
                },
                lockstep_core::duel::Outcome::Ongoing => "unfinished",
            };
            println!("result: {winner}");
            println!("reason: {}", report.reason);
            println!(
                "turns: {}; time used: p1 {} ms, p2 {} ms; referee overhead per turn: mean {:.1} us, max {:.1} us",
                report.turns,
                report.time_used_ms[0],
                report.time_used_ms[1],
                report.overhead_us.0,
                report.overhead_us.1
            );
            Ok(0)
        }
    }
}

/// Perft is checkers-only, so it is a command of its own rather than a method of
/// every puzzle.
fn perft(max_depth: u32, reference: bool, threads: usize) -> Result<i32> {
    let mut stdout = std::io::stdout().lock();
    for depth in 1..=max_depth {
        let start = std::time::Instant::now();
        let nodes = if reference {
            lockstep_reference::checkers::perft(depth, &mut lockstep_reference::Fuel::unlimited())
                .expect("unlimited fuel does not run out")
        } else {
            lockstep_core::checkers::perft_parallel(depth, threads)
        };
        let seconds = start.elapsed().as_secs_f64();
        writeln!(stdout, "{depth} {nodes}")?;
        stdout.flush()?;
        eprintln!(
            "perft {depth}: {nodes} nodes in {seconds:.3} s ({:.1} M nodes/s, {})",
            nodes as f64 / seconds.max(1e-9) / 1e6,
            if reference {
                "reference".to_string()
            } else {
                format!(
                    "core, {threads} thread{}",
                    if threads == 1 { "" } else { "s" }
                )
            }
        );
    }
    Ok(0)
}

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn solve(entry: &dyn Entry, reference: bool) -> Result<i32> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("reading stdin (judge input must be UTF-8 text)")?;
    match entry.solve(&input, reference) {
        Ok(output) => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(output.as_bytes())?;
            stdout.flush()?;
            Ok(0)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(2)
        }
    }
}

fn report_append(entry: &dyn Entry, dir: &std::path::Path, row: corpus::Row) -> Result<()> {
    let path = entry.corpus_path(dir);
    match entry.append(dir, row)? {
        Some(name) => eprintln!("appended row {name:?} to {}", path.display()),
        None => eprintln!("{} already holds this input; not appended", path.display()),
    }
    Ok(())
}

fn fuzz(entries: &[&dyn Entry], options: &CampaignOptions, dir: Option<PathBuf>) -> Result<i32> {
    eprintln!(
        "lockstep fuzz: seed {}, {} jobs, {:.1} s per puzzle (repeat with --seed {} --jobs {})",
        options.seed, options.jobs, options.seconds, options.seed, options.jobs
    );
    let mut rows = Vec::new();
    let mut found = false;
    for entry in entries {
        let summary = entry.fuzz(options);
        if let Some((report, row)) = &summary.finding {
            found = true;
            eprintln!("\n{report}");
            println!("{}", corpus::row_to_csv(row).trim_end());
            if let Some(dir) = &dir {
                report_append(*entry, dir, row.clone())?;
            }
        }
        rows.push((entry.name(), summary));
    }
    println!(
        "\n{:<12} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "puzzle", "cases", "cases/s", "agree", "diverge", "timeout"
    );
    for (name, s) in &rows {
        println!(
            "{:<12} {:>10} {:>10.0} {:>10} {:>8} {:>8}",
            name,
            s.tally.cases,
            s.cases_per_second(),
            s.tally.agree,
            s.tally.diverge,
            s.tally.timeout
        );
    }
    for (name, s) in &rows {
        if s.features.is_empty() {
            continue;
        }
        println!("\n{name}: cases reaching each rule branch");
        for (feature, count) in &s.features {
            println!(
                "  {feature:<44} {count:>10} {:>6.2}%",
                100.0 * *count as f64 / s.tally.cases.max(1) as f64
            );
        }
    }
    Ok(i32::from(found))
}

fn replay(entries: &[&dyn Entry], dir: &std::path::Path) -> Result<i32> {
    let mut failed = 0;
    let mut total = 0;
    for entry in entries {
        let path = entry.corpus_path(dir);
        let report = entry.replay(dir)?;
        for failure in &report.failures {
            println!(
                "FAIL {}:{} {}\n{}\n",
                path.display(),
                failure.line,
                failure.name,
                failure.problem
            );
        }
        println!(
            "{}: {} rows, {} passed, {} failed{}",
            entry.name(),
            report.rows,
            report.rows - report.failures.len(),
            report.failures.len(),
            if report.timeouts > 0 {
                format!(
                    ", {} with the reference out of fuel (core only)",
                    report.timeouts
                )
            } else {
                String::new()
            }
        );
        failed += report.failures.len();
        total += report.rows;
    }
    println!("replay: {} passed, {failed} failed", total - failed);
    Ok(i32::from(failed > 0))
}

fn stress(
    entry: &dyn Entry,
    options: &StressOptions,
    save: &std::path::Path,
    dir: Option<PathBuf>,
) -> Result<i32> {
    eprintln!(
        "lockstep stress {}: seed {}, {} jobs, time limit {} ms (repeat with --seed {} --jobs {})",
        entry.name(),
        options.seed,
        options.jobs,
        options.timeout.as_millis(),
        options.seed,
        options.jobs
    );
    let summary = entry.stress(options);
    let c = summary.counts;
    println!(
        "{}: {} cases, {:.1} cases/s: {} OK, {} WA, {} RE, {} TLE{}",
        entry.name(),
        c.cases,
        c.cases as f64 / summary.elapsed.as_secs_f64().max(1e-9),
        c.ok,
        c.wrong_answer,
        c.runtime_error,
        c.time_limit,
        if c.skipped > 0 {
            format!(", {} skipped (the reference out of fuel)", c.skipped)
        } else {
            String::new()
        }
    );
    if c.cases > 0 {
        println!(
            "per case: {:.3} ms in the program (start to exit), {:.3} ms in lockstep (generate, oracle, compare)",
            summary.program_time.as_secs_f64() * 1e3 / c.cases as f64,
            summary.own_time.as_secs_f64() * 1e3 / c.cases as f64
        );
    }
    let Some((report, input, row)) = summary.failure else {
        return Ok(0);
    };
    eprintln!("\n{report}");
    std::fs::write(save, &input)
        .with_context(|| format!("saving the failing input to {}", save.display()))?;
    eprintln!("saved the minimal failing input to {}", save.display());
    println!("{}", corpus::row_to_csv(&row).trim_end());
    if let Some(dir) = dir {
        report_append(entry, &dir, row)?;
    }
    Ok(1)
}

fn stress_duel(
    options: &crate::duel::stress::DuelStressOptions,
    save: &std::path::Path,
) -> Result<i32> {
    eprintln!(
        "lockstep stress duel: seed {}, {} jobs (repeat with --seed {} --jobs {})",
        options.seed, options.jobs, options.seed, options.jobs
    );
    let exe =
        std::env::current_exe().context("finding the lockstep binary for the built-in bots")?;
    let report = crate::duel::stress::run(options, &exe).map_err(anyhow::Error::msg)?;
    let mut times = report.time_used_ms.clone();
    times.sort_unstable();
    println!(
        "duel: {} games against random and greedy, {:.1} games/s: {} won, {} drawn, {} lost",
        report.games,
        report.games as f64 / report.elapsed.as_secs_f64().max(1e-9),
        report.wins,
        report.draws,
        report.losses
    );
    if !times.is_empty() {
        println!(
            "time used per game: median {} ms, max {} ms (of 1000)",
            times[times.len() / 2],
            times[times.len() - 1]
        );
    }
    if report.opponent_failures > 0 {
        println!(
            "the built-in opponent failed in {} games: a lockstep bug, please report it",
            report.opponent_failures
        );
    }
    let Some(failure) = report.failure else {
        return Ok(0);
    };
    eprintln!(
        "\ngame {}: the bot {:?}: {}\nreplay: {}\nlog:\n{}",
        failure.game, failure.kind, failure.message, failure.replay, failure.log
    );
    std::fs::write(save, &failure.log)
        .with_context(|| format!("saving the game log to {}", save.display()))?;
    eprintln!("saved the game log to {}", save.display());
    Ok(1)
}

fn bench(entries: &[&dyn Entry], options: &BenchOptions) -> Result<i32> {
    println!(
        "{} cases per round, {} rounds, seed {}; medians; one thread",
        options.cases, options.rounds, options.seed
    );
    println!(
        "{:<12} {:>14} {:>16} {:>9} {:>8}",
        "puzzle", "core cases/s", "reference cases/s", "speedup", "skipped"
    );
    for entry in entries {
        let r = entry.bench(options);
        println!(
            "{:<12} {:>14.0} {:>16.0} {:>8.1}x {:>8}",
            entry.name(),
            r.core_per_second,
            r.reference_per_second,
            r.speedup,
            r.skipped
        );
        for line in &r.extra {
            println!("  {line}");
        }
    }
    Ok(0)
}
