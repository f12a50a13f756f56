//! The `lockstep` command line: argument parsing, output, and exit codes.
//!
//! Exit codes: 0 when all is well; 1 when lockstep found something (a disagreement,
//! a failing corpus row); 2 when it could not do its job (bad arguments, unreadable
//! input, I/O errors). Errors are one line on stderr.

use crate::bench::BenchOptions;
use crate::campaign::CampaignOptions;
use crate::corpus;
use crate::process::Limits;
use crate::puzzle::{CaseLimits, Encoding};
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
    after_help = "Exit codes: 0 ok, 1 something found (disagreement, failing row, failing program), 2 error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The puzzles, from the registry: each command's help lists them, and either
/// spelling is accepted (`new-game2`, `new_game2`).
fn puzzle_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        puzzles::all()
            .iter()
            .map(|e| clap::builder::PossibleValue::new(e.name()).alias(e.module())),
    )
}

/// The most threads or jobs any command takes: far above any machine's cores,
/// low enough that a typo (`--jobs 100000`) is an error, not a crash.
const MAX_THREADS: usize = 1024;

fn thread_count(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("expected a whole number, found {text:?}"))?;
    if (1..=MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("must be in 1..={MAX_THREADS}, found {n}"))
    }
}

fn at_least_one(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a whole number, found {text:?}")),
    }
}

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        Ok(s) => Err(format!("must be a positive number of seconds, found {s}")),
        Err(_) => Err(format!("expected a number of seconds, found {text:?}")),
    }
}

/// A size in bytes, with an optional K, M or G suffix (powers of 1024).
fn byte_size(text: &str) -> Result<usize, String> {
    let (digits, unit) = match text.trim().to_ascii_uppercase() {
        t if t.ends_with('K') => (t[..t.len() - 1].to_string(), 1usize << 10),
        t if t.ends_with('M') => (t[..t.len() - 1].to_string(), 1 << 20),
        t if t.ends_with('G') => (t[..t.len() - 1].to_string(), 1 << 30),
        t => (t, 1),
    };
    match digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
    {
        Some(0) => Err("must be at least 1 byte".to_string()),
        Some(n) => Ok(n),
        None => Err(format!(
            "expected a size such as 16M, 512K or 1000000, found {text:?}"
        )),
    }
}

/// `NAME=COMMAND` for `duel ladder --cmd`.
fn named_command(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, cmd)) if !name.trim().is_empty() && !cmd.trim().is_empty() => {
            Ok((name.trim().to_string(), cmd.to_string()))
        }
        _ => Err(format!("expected NAME=COMMAND, found {text:?}")),
    }
}

fn non_empty_command(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("the command is empty".to_string())
    } else {
        Ok(text.to_string())
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve one judge input from stdin, writing the judge output to stdout.
    Solve {
        /// The puzzle.
        #[arg(value_parser = puzzle_names())]
        puzzle: String,
        /// Use the naive reference solver instead of the fast core.
        #[arg(long)]
        reference: bool,
    },
    /// Differential fuzzing: run core and reference on generated cases (the main job).
    Fuzz {
        /// Puzzles to fuzz (default: all; a puzzle named twice runs once).
        #[arg(value_parser = puzzle_names())]
        puzzles: Vec<String>,
        /// Total time budget in seconds, shared evenly by the puzzles.
        #[arg(long, default_value_t = 30.0, value_parser = positive_seconds)]
        seconds: f64,
        /// Seed for the generated cases (default: a fresh one, printed).
        #[arg(long)]
        seed: Option<u64>,
        /// Parallel jobs (default: the number of cores).
        #[arg(long, value_parser = thread_count)]
        jobs: Option<usize>,
        /// Stop each puzzle after this many cases, even with time left.
        #[arg(long, value_parser = at_least_one)]
        cases: Option<u64>,
        /// Corpus directory that findings are appended to (must exist)
        /// [default: ./corpus].
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// Report findings without appending them to the corpus.
        #[arg(long)]
        no_append: bool,
        /// Which cases to generate: the generator's whole range, or only cases
        /// inside the original statements' limits (docs/rules/).
        #[arg(long, value_enum, default_value_t = CaseLimits::Wide)]
        limits: CaseLimits,
        /// Also count how many cases reach each rule branch (rare pushes, teleports,
        /// tie-breaks, ...), for puzzles that report them.
        #[arg(long)]
        stats: bool,
    },
    /// Replay every corpus row through core and reference.
    Replay {
        /// Puzzles to replay (default: all).
        #[arg(value_parser = puzzle_names())]
        puzzles: Vec<String>,
        /// Corpus directory to replay (must exist) [default: ./corpus].
        #[arg(long)]
        corpus: Option<PathBuf>,
    },
    /// Shrink a diverging case (judge text or a cargo-fuzz artifact) and print its CSV row.
    Shrink {
        /// The puzzle.
        #[arg(value_parser = puzzle_names())]
        puzzle: String,
        /// The case: judge text, or the raw bytes of a cargo-fuzz artifact.
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
        /// Only these targets (default: every puzzle's folder that exists).
        #[arg(long = "target", value_parser = puzzle_names())]
        targets: Vec<String>,
        /// Corpus directory the rows are appended to (must exist) [default: ./corpus].
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// Only check that the corpus loads and takes new rows, then exit 0 (or 2):
        /// the overnight script runs this before a night of fuzzing.
        #[arg(long)]
        check: bool,
        /// Seconds one artifact may take to check and shrink; past that it is
        /// reported as hanging and kept for the next triage.
        #[arg(long, default_value_t = 300, value_parser = at_least_one)]
        artifact_seconds: u64,
    },
    /// Append the rows of a corpus-format CSV file (such as a fallback file a
    /// finding was saved to) to the puzzle's corpus; a case already there is skipped.
    Import {
        /// The puzzle whose corpus takes the rows.
        #[arg(value_parser = puzzle_names())]
        puzzle: String,
        /// The CSV file: a header and rows, as in corpus/<puzzle>.csv.
        file: PathBuf,
        /// Corpus directory (must exist) [default: ./corpus].
        #[arg(long)]
        corpus: Option<PathBuf>,
    },
    /// Test your own solution program against the oracle; shrink its first failure.
    Stress {
        /// The puzzle (duel plays a bot program against the built-in bots through
        /// the referee).
        #[arg(value_parser = puzzle_names())]
        puzzle: String,
        /// The program: judge input on its stdin, judge output expected on stdout.
        #[arg(long, value_parser = non_empty_command)]
        cmd: String,
        /// Stop after this many cases (for duel: games).
        #[arg(long, conflicts_with = "seconds", value_parser = at_least_one)]
        cases: Option<u64>,
        /// Stop after this many seconds (default 30 when --cases is not given).
        #[arg(long, value_parser = positive_seconds)]
        seconds: Option<f64>,
        /// Time limit per run of the program, in milliseconds [default: 2000].
        #[arg(long, value_parser = at_least_one)]
        timeout_ms: Option<u64>,
        /// Output limit per run: more is OLE and the program is killed at once
        /// (bytes, or with K, M, G) [default: 16M].
        #[arg(long, value_parser = byte_size)]
        output_limit: Option<usize>,
        /// Time for the start-up check, in milliseconds: the program runs once on
        /// an empty input to show that it starts [default: the time limit].
        #[arg(long, value_parser = at_least_one)]
        startup_ms: Option<u64>,
        /// Seed for the generated cases (default: a fresh one, printed).
        #[arg(long)]
        seed: Option<u64>,
        /// Programs run at once (default: the number of cores).
        #[arg(long, value_parser = thread_count)]
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
        /// Which cases to generate: inside the original statements' limits (what
        /// a judge's tests hold), or the generator's whole range.
        #[arg(long, value_enum, default_value_t = CaseLimits::Original)]
        limits: CaseLimits,
        /// Run every case, counting every failure by kind, and shrink the first
        /// failure of each kind (WA, RE, TLE, OLE) instead of stopping at the first.
        #[arg(long)]
        keep_going: bool,
        /// Candidates the shrinker may run the program on, per failure.
        #[arg(long, default_value_t = 3000, value_parser = at_least_one)]
        shrink_attempts: u64,
        /// Seconds the shrinker may take, per failure.
        #[arg(long, default_value_t = 60.0, value_parser = positive_seconds)]
        shrink_seconds: f64,
        /// Write every generated input (JOB-INDEX.in) and the oracle's answer
        /// (JOB-INDEX.ans) to this directory (created if missing).
        #[arg(long)]
        dump: Option<PathBuf>,
    },
    /// Cases per second of core and reference on the same cases, their ratio, and
    /// a one-job campaign's rate beside them (its efficiency: the campaign
    /// against core and reference run back to back).
    /// --cases and --rounds bound the generic line of every puzzle; the extra
    /// lines (duel turn rates and matrices, the duel-search opening, footholds
    /// full boards, checkers perft and games) have fixed sizes of their own,
    /// which --no-extras skips.
    Bench {
        /// Puzzles to measure (default: all).
        #[arg(value_parser = puzzle_names())]
        puzzles: Vec<String>,
        /// Cases per round of the generic line.
        #[arg(long, default_value_t = 2000, value_parser = at_least_one)]
        cases: u64,
        /// Rounds; medians are reported.
        #[arg(long, default_value_t = 7, value_parser = at_least_one)]
        rounds: u64,
        /// Seed for the generated cases.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only the generic line of each puzzle.
        #[arg(long)]
        no_extras: bool,
    },
    /// Cherry Blossom Duel: the `duel step` oracle, the referee, the built-in bots.
    Duel {
        #[command(subcommand)]
        command: DuelCommand,
    },
    /// Checkers perft from the standard start: one line `depth nodes` per depth 1..=N
    /// (timings on stderr).
    Perft {
        /// The deepest ply counted (deep ones take long: an estimate is printed).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Count with the naive reference instead of the bitboard core.
        #[arg(long)]
        reference: bool,
        /// Threads for the core (default: the number of cores).
        #[arg(long, value_parser = thread_count)]
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
    /// Run a game between two bot programs and print the result (a command with
    /// shell syntax runs through `sh -c`, others directly).
    Referee {
        /// Player 1's command.
        #[arg(long, value_parser = non_empty_command)]
        p1: String,
        /// Player 2's command.
        #[arg(long, value_parser = non_empty_command)]
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
        #[arg(long, value_parser = non_empty_command)]
        p1: String,
        /// Its opponent.
        #[arg(long, value_parser = non_empty_command)]
        p2: String,
        /// Games, in pairs on one random INIT with the sides swapped.
        #[arg(long, default_value_t = 100, value_parser = at_least_one)]
        games: u64,
        /// Games at once (each game runs two bot processes).
        #[arg(long, default_value_t = 1, value_parser = thread_count)]
        jobs: usize,
        /// Seed for the INITs (default: a fresh one, printed).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Every built-in strategy and every --cmd bot against every other, on the
    /// same INITs with the sides swapped: scores with 95% intervals, ratings,
    /// endings and times
    Ladder {
        /// A bot of yours, as NAME=COMMAND (repeatable), e.g. `--cmd mine=./bot`
        #[arg(long = "cmd", value_parser = named_command)]
        cmds: Vec<(String, String)>,
        /// Built-in strategies to enter (default: all of them)
        #[arg(long, value_enum, value_delimiter = ',')]
        strategies: Vec<crate::duel::bots::Strategy>,
        /// Games per pair, in pairs on one random INIT with the sides swapped
        #[arg(long, default_value_t = 20, value_parser = at_least_one)]
        games: u64,
        /// Games at once (each game runs two bot processes)
        #[arg(long, default_value_t = 1, value_parser = thread_count)]
        jobs: usize,
        /// Seed for the INITs (default: a fresh one, printed)
        #[arg(long)]
        seed: Option<u64>,
    },
    /// A built-in bot speaking the protocol on stdin/stdout.
    Bot {
        /// How the bot chooses its actions.
        #[arg(long, value_enum, default_value_t = crate::duel::bots::Strategy::Search)]
        strategy: crate::duel::bots::Strategy,
        /// Seed for its random choices (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
    },
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
    // Commands that run users' programs stop them on SIGINT, SIGTERM and SIGHUP,
    // and leave nothing running when they end.
    let runs_programs = matches!(
        cli.command,
        Command::Stress { .. }
            | Command::Duel {
                command: DuelCommand::Referee { .. } | DuelCommand::Tournament { .. }
            }
    );
    if runs_programs {
        crate::process::stop_on_signals();
    }
    let result = run(cli);
    if crate::process::interrupted() {
        // The signal's thread is killing the programs and will exit with the
        // signal's code; what this thread would report is moot.
        loop {
            std::thread::park();
        }
    }
    if runs_programs {
        crate::process::shutdown();
    }
    match result {
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
    // A puzzle named twice (either spelling) runs once, where it was first named.
    let mut entries: Vec<&'static dyn Entry> = Vec::new();
    for name in names {
        let entry = lookup(name)?;
        if !entries.iter().any(|e| e.module() == entry.module()) {
            entries.push(entry);
        }
    }
    Ok(entries)
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
            corpus::fallback_dir().display(),
            dir.display()
        ),
    }
}

fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Solve { puzzle, reference } => solve(lookup(&puzzle)?, reference),
        Command::Fuzz {
            puzzles,
            limits,
            seconds,
            seed,
            jobs,
            cases,
            corpus,
            no_append,
            stats,
        } => {
            let entries = pick(&puzzles)?;
            let options = CampaignOptions {
                limits,
                seconds: seconds / entries.len() as f64,
                seed: seed.unwrap_or_else(fresh_seed),
                jobs: jobs.unwrap_or_else(default_jobs),
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
            output_limit,
            startup_ms,
            seed,
            jobs,
            oracle,
            save,
            corpus,
            no_append,
            limits,
            keep_going,
            shrink_attempts,
            shrink_seconds,
            dump,
        } => {
            let entry = lookup(&puzzle)?;
            if let Some(dir) = &dump {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("--dump {}: creating it", dir.display()))?;
            }
            let timeout = std::time::Duration::from_millis(timeout_ms.unwrap_or(2000));
            let output_limit_given = output_limit.is_some();
            let output_limit = output_limit.unwrap_or(crate::process::DEFAULT_OUTPUT_LIMIT);
            let startup = Limits {
                time: startup_ms.map_or(timeout, std::time::Duration::from_millis),
                output: output_limit,
            };
            if let Err(message) = crate::stress::check_command(&cmd, startup) {
                bail!("{message}");
            }
            let seconds = seconds.unwrap_or(if cases.is_some() { f64::INFINITY } else { 30.0 });
            let seed = seed.unwrap_or_else(fresh_seed);
            let jobs = jobs.unwrap_or_else(default_jobs);
            if entry.played_through_referee() {
                // A bot is judged by the referee's own rules: a per-case time limit,
                // an oracle and a corpus row do not apply.
                let ignored = [
                    ("--timeout-ms", timeout_ms.is_some()),
                    ("--output-limit", output_limit_given),
                    ("--keep-going", keep_going),
                    ("--dump", dump.is_some()),
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
                timeout,
                output_limit,
                case_limits: limits,
                keep_going,
                shrink: crate::shrink::Budget {
                    attempts: shrink_attempts as usize,
                    time: Some(std::time::Duration::from_secs_f64(shrink_seconds)),
                },
                dump,
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
            no_extras,
        } => {
            let options = BenchOptions {
                cases: cases as usize,
                rounds: rounds as usize,
                seed,
                extras: !no_extras,
            };
            bench(&pick(&puzzles)?, &options)
        }
        Command::Duel { command } => duel(command),
        Command::Perft {
            depth,
            reference,
            threads,
        } => perft(depth, reference, threads.unwrap_or_else(default_jobs)),
    }
}

/// The duel commands are duel's own: an interactive game has more to it than a
/// judge input and output.
fn duel(command: DuelCommand) -> Result<i32> {
    use crate::duel::{bots, referee, tournament};
    use crate::seeds::SplitMix64;
    match command {
        DuelCommand::Step { reference } => duel_step(reference),
        DuelCommand::Bot { strategy, seed } => {
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
            let seed = seed.unwrap_or_else(fresh_seed);
            errln!("lockstep duel tournament: seed {seed}");
            let options = tournament::TournamentOptions {
                commands: [p1, p2],
                games: games as usize,
                jobs,
                seed,
                progress: true,
            };
            let report = tournament::run(&options).context("starting the bots")?;
            out!("{}", report.summary(&options.commands));
            Ok(0)
        }
        DuelCommand::Ladder {
            cmds,
            strategies,
            games,
            jobs,
            seed,
        } => {
            let seed = seed.unwrap_or_else(fresh_seed);
            errln!("lockstep duel ladder: seed {seed} (repeat with --seed {seed})");
            let exe = std::env::current_exe()
                .context("finding the lockstep binary for the built-in bots")?;
            let exe = crate::duel::stress::quoted(&exe);
            let strategies = if strategies.is_empty() {
                bots::Strategy::ALL.to_vec()
            } else {
                strategies
            };
            let mut entries: Vec<(String, String)> = Vec::new();
            for s in strategies {
                if entries.iter().all(|(name, _)| name != s.name()) {
                    let cmd = format!("{exe} duel bot --strategy {} --seed {seed}", s.name());
                    entries.push((s.name().to_string(), cmd));
                }
            }
            for (name, cmd) in cmds {
                if entries.iter().any(|(taken, _)| *taken == name) {
                    bail!("--cmd {name}=...: the name {name:?} is taken");
                }
                entries.push((name, cmd));
            }
            if entries.len() < 2 {
                bail!("a ladder needs at least two bots");
            }
            let options = crate::duel::ladder::LadderOptions {
                bots: entries,
                games: games as usize,
                jobs,
                seed,
                progress: true,
            };
            let report = crate::duel::ladder::run(&options).context("starting the bots")?;
            out!("{}", report.table());
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
                    // Read as the INIT line the bots will receive.
                    let init: crate::duel::protocol::Init = format!("INIT {text}")
                        .parse()
                        .ok()
                        .filter(|i: &crate::duel::protocol::Init| {
                            [i.spring, i.p1, i.p2]
                                .into_iter()
                                .all(lockstep_core::duel::inside)
                        })
                        .with_context(|| {
                            format!(
                                "--init {text:?}: expected six numbers 1..=7 (OR OC R1 C1 R2 C2)"
                            )
                        })?;
                    if init.p1 == init.p2 {
                        bail!("--init {text:?}: the players must start on different cells");
                    }
                    (init.spring, init.p1, init.p2)
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

/// `duel step`: one answer line for each step line, written as soon as the line
/// is read, so that a program can drive it line by line. A malformed line is
/// one error naming it (exit 2), after the answers to the lines before it.
fn duel_step(reference: bool) -> Result<i32> {
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
        match entry.solve(&line, reference) {
            Ok(answer) => {
                stdout.write_all(answer.as_bytes())?;
                stdout.flush()?;
            }
            Err(mut e) => {
                e.line = index + 1;
                errln!("error: {e}");
                return Ok(2);
            }
        }
    }
    if !any {
        // What the judge-format reader says of an empty input.
        if let Err(e) = entry.solve("", reference) {
            errln!("error: {e}");
            return Ok(2);
        }
    }
    Ok(0)
}

/// Perft is checkers-only, so it is a command of its own rather than a method of
/// every puzzle.
fn perft(max_depth: u32, reference: bool, threads: usize) -> Result<i32> {
    let count = |depth: u32| {
        if reference {
            lockstep_reference::checkers::perft(depth, &mut lockstep_reference::Fuel::unlimited())
                .expect("unlimited fuel does not run out")
        } else {
            lockstep_core::checkers::perft_parallel(depth, threads)
        }
    };
    // A deep count can run for days: say so first, from the growth and the rate
    // of a quick count measured now.
    let probe = max_depth.min(if reference { 6 } else { 9 });
    if max_depth > probe {
        let start = std::time::Instant::now();
        let nodes = count(probe) as f64;
        let rate = nodes / start.elapsed().as_secs_f64().max(1e-9);
        let growth = nodes / (count(probe - 1) as f64).max(1.0);
        let estimate = nodes * growth.powi((max_depth - probe) as i32);
        let seconds: f64 = (probe + 1..=max_depth)
            .map(|d| nodes * growth.powi((d - probe) as i32) / rate)
            .sum();
        if seconds > 60.0 {
            errln!(
                "warning: perft to depth {max_depth} counts about {estimate:.1e} nodes at depth {max_depth} (x{growth:.1} per ply); at the {:.0} M nodes/s just measured that is about {} in all (Ctrl-C stops it)",
                rate / 1e6,
                human_duration(seconds)
            );
        }
    }
    let mut stdout = std::io::stdout().lock();
    for depth in 1..=max_depth {
        let start = std::time::Instant::now();
        let nodes = count(depth);
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

/// Seconds as a person reads them: `45 s`, `12 min`, `3.5 h`, `9.1 days`.
fn human_duration(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s if s < 2.0 * 31_557_600.0 => format!("{:.1} days", s / 86_400.0),
        s => format!("{:.0} years", s / 31_557_600.0),
    }
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
        "lockstep fuzz: seed {}, {} jobs, {:.1} s per puzzle, {} limits (repeat with --seed {} --jobs {} --limits {})",
        options.seed,
        options.jobs,
        options.seconds,
        options.limits,
        options.seed,
        options.jobs,
        options.limits
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
        outln!(
            "\n{name}: cases reaching each rule branch ({} limits)",
            options.limits
        );
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
        "lockstep stress {}: seed {}, {} jobs, time limit {} ms, {} limits (repeat with --seed {} --jobs {})",
        entry.name(),
        options.seed,
        options.jobs,
        options.timeout.as_millis(),
        options.case_limits,
        options.seed,
        options.jobs
    );
    announce_corpus(dir);
    let summary = entry.stress(options);
    if crate::process::interrupted() {
        // The signal's thread exits; a failure seen now is its kill's doing,
        // never to be recorded as a finding.
        loop {
            std::thread::park();
        }
    }
    let c = summary.counts;
    outln!(
        "{}: {} cases, {:.1} cases/s: {} OK, {} WA, {} RE, {} TLE, {} OLE{}",
        entry.name(),
        c.cases,
        c.cases as f64 / summary.elapsed.as_secs_f64().max(1e-9),
        c.ok,
        c.wrong_answer,
        c.runtime_error,
        c.time_limit,
        c.output_limit,
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
    // Every failing case by kind, with where it was generated (job.index).
    const LISTED: usize = 20;
    for kind in ["WA", "RE", "TLE", "OLE"] {
        let cases: Vec<String> = summary
            .failing
            .iter()
            .filter(|f| f.0 == kind)
            .map(|&(_, job, index)| format!("{job}.{index}"))
            .collect();
        if !cases.is_empty() {
            outln!(
                "{kind}: {} case{} (job.index): {}{}",
                cases.len(),
                if cases.len() == 1 { "" } else { "s" },
                cases[..cases.len().min(LISTED)].join(" "),
                if cases.len() > LISTED { " ..." } else { "" }
            );
        }
    }
    if summary.failures.is_empty() {
        return Ok(0);
    }
    let several = summary.failures.len() > 1;
    for failure in &summary.failures {
        errln!("\n{}", failure.report);
        record_finding(entry, dir, &failure.row);
        // With several kinds, each saved input is named after its kind.
        let path = if several {
            let stem = save.file_stem().unwrap_or_default().to_string_lossy();
            let name = match save.extension() {
                Some(ext) => format!("{stem}-{}.{}", failure.kind, ext.to_string_lossy()),
                None => format!("{stem}-{}", failure.kind),
            };
            save.with_file_name(name)
        } else {
            save.to_path_buf()
        };
        // The row holds the input too, so failing to save it is reported, not fatal.
        match std::fs::write(&path, &failure.input) {
            Ok(()) => errln!("saved the minimal failing input to {}", path.display()),
            Err(e) => errln!(
                "could not save the minimal failing input to {}: {e} (the row above holds it)",
                path.display()
            ),
        }
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
        "{:<12} {:>14} {:>16} {:>9} {:>8} {:>16} {:>10} {:>16}",
        "puzzle",
        "core cases/s",
        "reference cases/s",
        "speedup",
        "skipped",
        "campaign cases/s",
        "efficiency",
        "generate cases/s"
    );
    for entry in entries {
        let r = entry.bench(options);
        outln!(
            "{:<12} {:>14.0} {:>16.0} {:>8.1}x {:>8} {:>16.0} {:>9.0}% {:>16.0}",
            entry.name(),
            r.core_per_second,
            r.reference_per_second,
            r.speedup,
            r.skipped,
            r.campaign_per_second,
            100.0 * r.campaign_efficiency,
            r.generate_per_second
        );
        for line in &r.extra {
            outln!("  {line}");
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every option and argument of every command says what it is for.
    #[test]
    fn every_argument_has_a_help_line() {
        fn check(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                if arg
                    .get_help()
                    .is_none_or(|h| h.to_string().trim().is_empty())
                {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in command.get_subcommands() {
                if sub.get_about().is_none() && sub.get_name() != "help" {
                    missing.push(format!("{path} {} (the command)", sub.get_name()));
                }
                check(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        check(&Cli::command(), "lockstep", &mut missing);
        assert!(missing.is_empty(), "no help: {missing:?}");
        Cli::command().debug_assert();
    }
}
