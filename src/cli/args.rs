//! The command line's shape: the clap types and the value parsers that
//! reject meaningless arguments before anything runs.

use super::*;

#[derive(Parser, Debug)]
#[command(
    name = "lockstep",
    version,
    about = "Differential fuzzing of fast puzzle solvers against naive references",
    after_help = "Exit codes: 0 ok, 1 something found (disagreement, failing row, failing program), 2 error."
)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

/// The puzzles, from the registry: each command's help lists them, and either
/// spelling is accepted (`new-game2`, `new_game2`).
pub(super) fn puzzle_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        crate::registry::all()
            .iter()
            .map(|e| clap::builder::PossibleValue::new(e.name()).alias(e.module())),
    )
}

/// The most threads or jobs any command takes: far above any machine's cores,
/// low enough that a typo (`--jobs 100000`) is an error, not a crash.
pub(super) const MAX_THREADS: usize = 1024;

pub(super) fn thread_count(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("expected a whole number, found {text:?}"))?;
    if (1..=MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("must be in 1..={MAX_THREADS}, found {n}"))
    }
}

pub(super) fn at_least_one(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a whole number, found {text:?}")),
    }
}

pub(super) fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        Ok(s) => Err(format!("must be a positive number of seconds, found {s}")),
        Err(_) => Err(format!("expected a number of seconds, found {text:?}")),
    }
}

/// A size in bytes, with an optional K, M or G suffix (powers of 1024).
pub(super) fn byte_size(text: &str) -> Result<usize, String> {
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
pub(super) fn named_command(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, cmd)) if !name.trim().is_empty() && !cmd.trim().is_empty() => {
            Ok((name.trim().to_string(), cmd.to_string()))
        }
        _ => Err(format!("expected NAME=COMMAND, found {text:?}")),
    }
}

pub(super) fn non_empty_command(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("the command is empty".to_string())
    } else {
        Ok(text.to_string())
    }
}

// Parsed once per run: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub(super) enum Command {
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
        /// Machine K of N (K from 0) in one campaign spread over N machines with
        /// the same seed and --jobs: this one runs global jobs K*jobs to
        /// (K+1)*jobs-1, so together they run the cases of one run with N times
        /// the jobs, none twice; --cases counts all machines' cases.
        #[arg(long, default_value = "0/1", value_name = "K/N")]
        shard: Shard,
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
    /// Test your own solution program against the oracle; shrink its first
    /// failure. For any problem, leave the puzzle out and give your generator
    /// and brute force (--gen, --brute).
    Stress {
        /// The puzzle (a duel bot is stressed by `lockstep duel stress`); left
        /// out with --gen and --brute.
        #[arg(value_parser = puzzle_names(), required_unless_present = "gen")]
        puzzle: Option<String>,
        /// The program: judge input on its stdin, judge output expected on stdout.
        #[arg(long, value_parser = non_empty_command)]
        cmd: String,
        /// Any problem: your generator, run with a seed as its last argument
        /// (SEED, SEED+1, ... for cases 0, 1, ...), printing one input.
        #[arg(long, value_parser = non_empty_command, requires = "brute", conflicts_with_all = ["puzzle", "oracle", "limits", "corpus", "no_append"])]
        gen: Option<String>,
        /// Any problem: your brute force, whose output is the expected answer.
        #[arg(long, value_parser = non_empty_command, requires = "gen")]
        brute: Option<String>,
        /// Any problem with several right answers: `CHECKER input output answer`
        /// judges (testlib's convention: exit 0 accepts, 1 and 2 reject; 3, any
        /// other code or a crash is the checker's own failure); without it
        /// outputs are compared.
        #[arg(long, value_parser = non_empty_command, requires = "gen")]
        checker: Option<String>,
        /// Any problem: reads an input on stdin, exit 0 when it is valid.
        /// Generated inputs must pass it; shrinking keeps only inputs that do.
        #[arg(long, value_parser = non_empty_command, requires = "gen")]
        validator: Option<String>,
        /// Any problem: time limit per run of the generator, validator, brute
        /// force and checker, in milliseconds [default: 10000].
        #[arg(long, value_parser = at_least_one, requires = "gen")]
        helper_timeout_ms: Option<u64>,
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
        /// Where to save the minimal failing input [default:
        /// lockstep-stress-<module>.txt for a puzzle, lockstep-stress.txt
        /// with --gen].
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
    /// against core and reference run back to back; harness: against
    /// generator, core and reference run back to back).
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
pub(super) enum OracleArg {
    /// The fast core (checked against the reference by `lockstep fuzz`).
    Core,
    /// The naive reference (slower; cases it cannot finish are skipped).
    Reference,
}

#[derive(Subcommand, Debug)]
pub(super) enum DuelCommand {
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
    /// Your bot program against the built-in random and greedy bots through
    /// the referee: a timeout, crash, malformed answer or illegal list stops
    /// the run and saves the game's log; losing fairly is not a failure
    Stress {
        /// Your bot's command (shell syntax runs through `sh -c`)
        #[arg(long, value_parser = non_empty_command)]
        cmd: String,
        /// Stop after this many games
        #[arg(long, value_parser = at_least_one)]
        games: Option<u64>,
        /// Stop after this many seconds (default 30 when --games is not given)
        #[arg(long)]
        seconds: Option<f64>,
        /// Time for the start-up check, in milliseconds: the bot runs once on an
        /// empty input to show that it starts [default: 2000]
        #[arg(long)]
        startup_ms: Option<u64>,
        /// Seed for the INITs (default: a fresh one, printed)
        #[arg(long)]
        seed: Option<u64>,
        /// Games at once (default: the number of cores)
        #[arg(long, value_parser = thread_count)]
        jobs: Option<usize>,
        /// Where to save the failing game's log [default: lockstep-stress-duel.log]
        #[arg(long)]
        save: Option<PathBuf>,
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
