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
use std::path::{Path, PathBuf};

/// `println!` that never panics: a closed stdout (`lockstep fuzz | head -1`)
/// must not cost a finding, which is recorded before anything is printed.
macro_rules! outln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` that never panics (see [`outln`]).
macro_rules! out {
    ($($arg:tt)*) => {{
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

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
        /// Corpus directory that findings are appended to (must exist)
        /// [default: ./corpus].
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
        /// Corpus directory to replay (must exist) [default: ./corpus].
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
        /// Corpus directory for --append (must exist) [default: ./corpus].
        #[arg(long)]
        corpus: Option<PathBuf>,
    },
    /// Turn every cargo-fuzz artifact (crash-*, timeout-*, oom-*) into a shrunk
    /// corpus row; settled artifacts move to done/. Exit 1 when one reproduced.
    Triage {
        /// The cargo-fuzz artifacts directory, one folder per target.
        #[arg(default_value = "fuzz/artifacts")]
        artifacts: PathBuf,
        /// Only these targets (either spelling, e.g. new-game2 or new_game2;
        /// default: every puzzle's folder that exists).
        #[arg(long = "target")]
        targets: Vec<String>,
        /// Corpus directory the rows are appended to [default: ./corpus].
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// Only check that the corpus loads and takes new rows, then exit 0 (or 2):
        /// the overnight script runs this before a night of fuzzing.
        #[arg(long)]
        check: bool,
        /// Seconds one artifact may take to check and shrink; past that it is
        /// reported as hanging and kept for the next triage.
        #[arg(long, default_value_t = 300)]
        artifact_seconds: u64,
    },
    /// Append the rows of a corpus-format CSV file (such as a fallback file a
    /// finding was saved to) to the puzzle's corpus; a case already there is skipped.
    Import {
        /// The puzzle whose corpus takes the rows.
        puzzle: String,
        /// The CSV file: a header and rows, as in corpus/<puzzle>.csv.
        file: PathBuf,
        /// Corpus directory (must exist) [default: ./corpus].
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
        /// Corpus directory the failure's row is appended to (must exist)
        /// [default: ./corpus].
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
            errln!("error: {e:#}");
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

/// The corpus directory: `--corpus DIR`, which must exist (lockstep never creates
/// one, so a typo is an error rather than a new directory), or `./corpus` of the
/// current directory. Never the source tree lockstep was built from: rows go
/// where the user runs it or says.
fn corpus_dir(given: Option<PathBuf>) -> Result<PathBuf> {
    match given {
        Some(dir) if !dir.is_dir() => bail!(
            "--corpus {}: no such directory (lockstep does not create one; make it first)",
            dir.display()
        ),
        Some(dir) => Ok(dir),
        None => Ok(PathBuf::from("corpus")),
    }
}

/// Says where a run's findings will go, before it starts.
fn announce_corpus(dir: Option<&Path>) {
    match dir {
        None => errln!("findings: printed only (--no-append)"),
        Some(dir) if dir.is_dir() => errln!("findings: appended to {}/<puzzle>.csv", dir.display()),
        Some(dir) => errln!(
            "findings: {} does not exist, so a finding is saved to a file under {} instead (mkdir {} or pass --corpus DIR to keep findings in a corpus)",
            dir.display(),
            std::env::temp_dir().join("lockstep-findings").display(),
            dir.display()
        ),
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
            let dir = if no_append {
                None
            } else {
                Some(corpus_dir(corpus)?)
            };
            fuzz(&entries, &options, dir.as_deref())
        }
        Command::Replay { puzzles, corpus } => replay(&pick(&puzzles)?, &corpus_dir(corpus)?),
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
            let dir = if append {
                Some(corpus_dir(corpus)?)
            } else {
                None
            };
            let provenance = format!("lockstep shrink {}", file.display());
            let summary = match entry.shrink(&data, encoding, &provenance) {
                Ok(summary) => summary,
                Err(why) => bail!("{}: {why}", file.display()),
            };
            errln!("{}", summary.report);
            record_finding(entry, dir.as_deref(), &summary.row);
            // A disagreement was found and shrunk: "something found".
            Ok(1)
        }
        Command::Import {
            puzzle,
            file,
            corpus,
        } => {
            let entry = lookup(&puzzle)?;
            let dir = corpus_dir(corpus)?;
            let path = entry.corpus_path(&dir);
            for appended in entry.import(&dir, &file)? {
                match appended {
                    corpus::Appended::Written(name) => {
                        outln!("appended row {name:?} to {}", path.display())
                    }
                    corpus::Appended::AlreadyPresent(name) => outln!(
                        "{} already holds this case (row {name:?}); skipped",
                        path.display()
                    ),
                }
            }
            Ok(0)
        }
        Command::Triage {
            artifacts,
            targets,
            corpus,
            check,
            artifact_seconds,
        } => {
            let dir = corpus_dir(corpus)?;
            let entries = pick(&targets)?;
            if check {
                return check_corpus(&entries, &dir);
            }
            triage(
                &entries,
                !targets.is_empty(),
                &artifacts,
                &dir,
                std::time::Duration::from_secs(artifact_seconds.max(1)),
            )
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
            let dir = if no_append {
                None
            } else {
                Some(corpus_dir(corpus)?)
            };
            stress(entry, &options, &save, dir.as_deref())
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
            errln!("lockstep duel tournament: seed {seed}");
            let options = tournament::TournamentOptions {
                commands: [p1, p2],
                games,
                jobs: jobs.max(1),
                seed,
                progress: true,
            };
            let report = tournament::run(&options).context("starting the bots")?;
            out!("{}", report.summary(&options.commands));
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
                    errln!("lockstep duel referee: seed {seed}");
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
        errln!(
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
            errln!("error: {e}");
            Ok(2)
        }
    }
}

/// Records a finding's row (in the corpus, or a fallback file when that fails)
/// and prints the row, ready to paste, and where it went. Never fails: a finding
/// that cannot be written anywhere is still printed in full.
fn record_finding(
    entry: &dyn Entry,
    dir: Option<&Path>,
    row: &corpus::Row,
) -> Option<corpus::Recorded> {
    let recorded = dir.map(|dir| entry.record(dir, row.clone()));
    outln!("{}", corpus::row_to_csv(row).trim_end());
    if let Some(recorded) = &recorded {
        errln!("{recorded}");
    }
    recorded
}

fn fuzz(entries: &[&dyn Entry], options: &CampaignOptions, dir: Option<&Path>) -> Result<i32> {
    errln!(
        "lockstep fuzz: seed {}, {} jobs, {:.1} s per puzzle (repeat with --seed {} --jobs {})",
        options.seed,
        options.jobs,
        options.seconds,
        options.seed,
        options.jobs
    );
    announce_corpus(dir);
    let mut rows = Vec::new();
    let mut found = false;
    for entry in entries {
        let summary = entry.fuzz(options);
        if let Some((report, row)) = &summary.finding {
            found = true;
            errln!("\n{report}");
            record_finding(*entry, dir, row);
        }
        rows.push((entry.name(), summary));
    }
    outln!(
        "\n{:<12} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "puzzle",
        "cases",
        "cases/s",
        "agree",
        "diverge",
        "timeout"
    );
    for (name, s) in &rows {
        outln!(
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
        outln!("\n{name}: cases reaching each rule branch");
        for (feature, count) in &s.features {
            outln!(
                "  {feature:<44} {count:>10} {:>6.2}%",
                100.0 * *count as f64 / s.tally.cases.max(1) as f64
            );
        }
    }
    Ok(i32::from(found))
}

/// `lockstep triage --check`: every puzzle's corpus file loads and takes rows.
fn check_corpus(entries: &[&dyn Entry], dir: &Path) -> Result<i32> {
    for entry in entries {
        let rows = entry
            .load(dir, true)
            .with_context(|| format!("the corpus cannot take findings for {}", entry.name()))?;
        errln!(
            "{}: {} rows, writable",
            entry.corpus_path(dir).display(),
            rows
        );
    }
    Ok(0)
}

/// `lockstep triage`: every artifact of every target folder under `artifacts`
/// checked, shrunk and recorded. `named` says the targets were named by the
/// user: each then has its line in the table, with zeros when it has no folder.
fn triage(
    entries: &[&'static dyn Entry],
    named: bool,
    artifacts: &Path,
    dir: &Path,
    limit: std::time::Duration,
) -> Result<i32> {
    use crate::triage::{triage_target, Fate, Reproduce, Table};
    if !artifacts.is_dir() && !named {
        errln!(
            "{}: no artifacts directory, nothing to triage",
            artifacts.display()
        );
        return Ok(0);
    }
    announce_corpus(Some(dir));
    let mut reports = Vec::new();
    for &entry in entries {
        // cargo-fuzz names a target's folder after the fuzz target (the module).
        let folder = [entry.module(), entry.name()]
            .iter()
            .map(|name| artifacts.join(name))
            .find(|path| path.is_dir());
        let Some(folder) = folder else {
            // A named target with no folder found nothing: it is listed with
            // zeros; an unnamed one is left out.
            if named {
                reports.push(crate::triage::TargetReport {
                    target: entry.module().to_string(),
                    ..Default::default()
                });
            }
            continue;
        };
        let reproduce: Reproduce = std::sync::Arc::new(move |bytes: &[u8]| {
            entry
                .shrink(
                    bytes,
                    Encoding::Bytes,
                    "cargo-fuzz artifact, by lockstep triage",
                )
                .map(|summary| (summary.report, summary.row))
        });
        let record = |row: corpus::Row| {
            outln!("{}", corpus::row_to_csv(&row).trim_end());
            entry.record(dir, row)
        };
        let report = triage_target(entry.module(), &folder, &reproduce, &record, limit)
            .with_context(|| format!("triaging {}", folder.display()))?;
        for item in &report.items {
            let name = item.artifact.display();
            match &item.fate {
                Fate::Reproduced { report, recorded } => {
                    errln!("\n== {name}: reproduced\n{report}\n{recorded}")
                }
                Fate::NotReproduced(why) => errln!("== {name}: did not reproduce: {why}"),
                Fate::Failed(why) => errln!("== {name}: kept for the next triage: {why}"),
            }
            if let Some(to) = &item.moved_to {
                errln!("   moved to {}", to.display());
            }
        }
        reports.push(report);
    }
    out!("{}", Table(&reports));
    let unsaved: usize = reports.iter().map(|r| r.unsaved).sum();
    if unsaved > 0 {
        errln!(
            "triage: {unsaved} row(s) could not be appended to the corpus (see above); their artifacts stay for the next triage"
        );
    }
    Ok(i32::from(reports.iter().any(|r| r.found())))
}

fn replay(entries: &[&dyn Entry], dir: &std::path::Path) -> Result<i32> {
    let mut failed = 0;
    let mut total = 0;
    for entry in entries {
        let path = entry.corpus_path(dir);
        let report = entry.replay(dir)?;
        for failure in &report.failures {
            outln!(
                "FAIL {}:{} {}\n{}\n",
                path.display(),
                failure.line,
                failure.name,
                failure.problem
            );
        }
        outln!(
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
    outln!("replay: {} passed, {failed} failed", total - failed);
    Ok(i32::from(failed > 0))
}

fn stress(
    entry: &dyn Entry,
    options: &StressOptions,
    save: &std::path::Path,
    dir: Option<&Path>,
) -> Result<i32> {
    errln!(
        "lockstep stress {}: seed {}, {} jobs, time limit {} ms (repeat with --seed {} --jobs {})",
        entry.name(),
        options.seed,
        options.jobs,
        options.timeout.as_millis(),
        options.seed,
        options.jobs
    );
    announce_corpus(dir);
    let summary = entry.stress(options);
    let c = summary.counts;
    outln!(
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
        outln!(
            "per case: {:.3} ms in the program (start to exit), {:.3} ms in lockstep (generate, oracle, compare)",
            summary.program_time.as_secs_f64() * 1e3 / c.cases as f64,
            summary.own_time.as_secs_f64() * 1e3 / c.cases as f64
        );
    }
    let Some((report, input, row)) = summary.failure else {
        return Ok(0);
    };
    errln!("\n{report}");
    record_finding(entry, dir, &row);
    // The row holds the input too, so failing to save it is reported, not fatal.
    match std::fs::write(save, &input) {
        Ok(()) => errln!("saved the minimal failing input to {}", save.display()),
        Err(e) => errln!(
            "could not save the minimal failing input to {}: {e} (the row above holds it)",
            save.display()
        ),
    }
    Ok(1)
}

fn stress_duel(
    options: &crate::duel::stress::DuelStressOptions,
    save: &std::path::Path,
) -> Result<i32> {
    errln!(
        "lockstep stress duel: seed {}, {} jobs (repeat with --seed {} --jobs {})",
        options.seed,
        options.jobs,
        options.seed,
        options.jobs
    );
    let exe =
        std::env::current_exe().context("finding the lockstep binary for the built-in bots")?;
    let report = crate::duel::stress::run(options, &exe).map_err(anyhow::Error::msg)?;
    let mut times = report.time_used_ms.clone();
    times.sort_unstable();
    outln!(
        "duel: {} games against random and greedy, {:.1} games/s: {} won, {} drawn, {} lost",
        report.games,
        report.games as f64 / report.elapsed.as_secs_f64().max(1e-9),
        report.wins,
        report.draws,
        report.losses
    );
    if !times.is_empty() {
        outln!(
            "time used per game: median {} ms, max {} ms (of 1000)",
            times[times.len() / 2],
            times[times.len() - 1]
        );
    }
    if report.opponent_failures > 0 {
        outln!(
            "the built-in opponent failed in {} games: a lockstep bug, please report it",
            report.opponent_failures
        );
    }
    let Some(failure) = report.failure else {
        return Ok(0);
    };
    errln!(
        "\ngame {}: the bot {:?}: {}\nreplay: {}\nlog:\n{}",
        failure.game,
        failure.kind,
        failure.message,
        failure.replay,
        failure.log
    );
    match std::fs::write(save, &failure.log) {
        Ok(()) => errln!("saved the game log to {}", save.display()),
        Err(e) => errln!(
            "could not save the game log to {}: {e} (it is printed above)",
            save.display()
        ),
    }
    Ok(1)
}

fn bench(entries: &[&dyn Entry], options: &BenchOptions) -> Result<i32> {
    outln!(
        "{} cases per round, {} rounds, seed {}; medians; one thread",
        options.cases,
        options.rounds,
        options.seed
    );
    outln!(
        "{:<12} {:>14} {:>16} {:>9} {:>8}",
        "puzzle",
        "core cases/s",
        "reference cases/s",
        "speedup",
        "skipped"
    );
    for entry in entries {
        let r = entry.bench(options);
        outln!(
            "{:<12} {:>14.0} {:>16.0} {:>8.1}x {:>8}",
            entry.name(),
            r.core_per_second,
            r.reference_per_second,
            r.speedup,
            r.skipped
        );
        for line in &r.extra {
            outln!("  {line}");
        }
    }
    Ok(0)
}
