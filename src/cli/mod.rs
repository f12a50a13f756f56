//! The `lockstep` command line: the commands, their arguments, and the exit
//! code.
//!
//! Each command is a file of its own here, holding its `clap::Args` struct
//! (defaults on the flags) and the function that does the command and prints
//! its report; the reports themselves are `Display` types of the modules that
//! make them. Exit codes are named in [`exit`]: 0 when all is well; 1 when
//! lockstep found something (a disagreement, a failing corpus row); 2 when it
//! could not do its job (bad arguments, unreadable input, I/O errors). Errors
//! are one line on stderr.

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write;

/// `println!` that never panics: a closed stdout (`lockstep fuzz | head -1`)
/// must not cost a finding, which is recorded before anything is printed. Any
/// other failure to write (a full disk) is kept, and the command then exits 2
/// saying so ([`stdout_written`]).
macro_rules! outln {
    ($($arg:tt)*) => {{
        $crate::cli::note_stdout(writeln!(std::io::stdout(), $($arg)*));
    }};
}

/// `print!` that never panics (see [`outln`]).
macro_rules! out {
    ($($arg:tt)*) => {{
        $crate::cli::note_stdout(write!(std::io::stdout(), $($arg)*));
    }};
}

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod bench;
mod common;
mod corpus;
mod duel;
pub mod exit;
mod export;
mod findings;
mod fuzz;
mod import;
mod judged;
mod languages;
mod mutants;
mod output;
mod perft;
mod replay;
mod report;
mod shrink;
mod solve;
mod stress;
mod test;
mod triage;
mod values;
mod verify;

pub use exit::Exit;

/// The first failure to write the report to stdout, other than a closed pipe.
static STDOUT_ERROR: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Keeps a failure to write to stdout (see [`outln`]); a closed pipe is not
/// one: the reader has all it wanted.
#[doc(hidden)]
pub fn note_stdout(result: std::io::Result<()>) {
    if let Err(e) = result {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = STDOUT_ERROR.set(e.to_string());
        }
    }
}

/// Flushes stdout; the failure to write the report, if there was one.
fn stdout_written() -> Result<(), String> {
    note_stdout(std::io::stdout().flush());
    match STDOUT_ERROR.get() {
        Some(e) => Err(e.clone()),
        None => Ok(()),
    }
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

// Parsed once per run: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Solve one judge input from stdin, writing the judge output to stdout.
    Solve(solve::SolveArgs),
    /// Differential fuzzing: run core and reference on generated cases (the main job).
    Fuzz(fuzz::FuzzArgs),
    /// Verification: every case up to a size through core and reference,
    /// smallest first; a certificate per level, or the smallest disagreement.
    Verify(verify::VerifyArgs),
    /// Replay every corpus row through core and reference.
    Replay(replay::ReplayArgs),
    /// Shrink a diverging case (judge text or a cargo-fuzz artifact) and print its CSV row.
    Shrink(shrink::ShrinkArgs),
    /// Turn every cargo-fuzz artifact (crash-*, timeout-*, oom-*) into a shrunk
    /// corpus row; settled artifacts move to done/. Exit 1 when one reproduced.
    Triage(triage::TriageArgs),
    /// Append the rows of a corpus-format CSV file (such as a fallback file a
    /// finding was saved to) to the puzzle's corpus; a case already there is skipped.
    Import(import::ImportArgs),
    /// One self-contained HTML page from the JSON of campaigns (`fuzz
    /// --format json`) and nights (`triage --format json`).
    Report(report::ReportArgs),
    /// The corpus itself: `distill` a campaign into rows that reach what it
    /// reached, `export` its rows as a judge's test set.
    Corpus(corpus::CorpusArgs),
    /// Test your own solution program against the oracle; shrink its first
    /// failure. `lockstep stress any` does the same for any problem, with your
    /// generator and brute force.
    Stress(stress::StressArgs),
    /// Cases per second of core and reference on the same cases, their ratio, and
    /// a one-job campaign's rate beside them, with its overhead: the campaign's
    /// time beyond generation, core and reference, each timed alone on the
    /// same cases, as a share of their sum (median over rounds).
    /// --cases and --rounds bound the generic line of every puzzle; the extra
    /// lines (duel turn rates and matrices, the duel-search opening, footholds
    /// full boards, checkers perft and games) have fixed sizes of their own,
    /// which --no-extras skips.
    Bench(bench::BenchArgs),
    /// Cherry Blossom Duel: the `duel step` oracle, the referee, the built-in bots.
    Duel(duel::DuelArgs),
    /// Checkers perft from the standard start: one line `depth nodes` per depth 1..=N
    /// (timings on stderr).
    Perft(perft::PerftArgs),
    /// Run a solution over a set of tests (NAME.in with NAME.ans or
    /// NAME.out, or a corpus file's rows) in parallel: a line per test with
    /// its verdict, time and memory, then the counts. Exit 1 when one fails.
    Test(test::TestArgs),
    /// The languages a source file may be in (its extension says which):
    /// compile and run lines and time multipliers, in force and overridable.
    Languages(languages::LanguagesArgs),
}

impl Command {
    /// Whether a signal kills the command's programs and exits at once:
    /// the duel's games and tournaments, whose half-played games have no
    /// result.
    fn exits_on_signals(&self) -> bool {
        matches!(self, Command::Duel(args) if args.runs_programs())
    }

    /// Whether the command finishes on a signal: its programs are killed,
    /// its loops and shrinks stop, and it reports and saves what it had
    /// found. The others (a `solve`, a `replay`) read no stop flag and end
    /// as the signal's default action ends them.
    fn finishes_on_signals(&self) -> bool {
        matches!(
            self,
            Command::Fuzz(_)
                | Command::Verify(_)
                | Command::Corpus(_)
                | Command::Stress(_)
                | Command::Test(_)
                | Command::Triage(_)
                | Command::Shrink(_)
        )
    }

    fn runs_programs(&self) -> bool {
        match self {
            Command::Stress(_) | Command::Test(_) => true,
            Command::Duel(args) => args.runs_programs(),
            _ => false,
        }
    }
}

/// The command line's definition, every command and option: what the tests
/// walk to feed each option its largest value.
pub fn definition() -> clap::Command {
    Cli::command()
}

/// Runs the command line; returns the exit code.
pub fn main() -> i32 {
    let parsed = numbers_may_be_negative(Cli::command())
        .try_get_matches_from(stress::old_spelling(std::env::args_os()))
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let exit = if e.use_stderr() {
                Exit::Error
            } else {
                Exit::Clean
            };
            let _ = e.print();
            return exit.code();
        }
    };
    let runs_programs = cli.command.runs_programs();
    if cli.command.exits_on_signals() {
        lockstep_process::stop_on_signals();
    } else if cli.command.finishes_on_signals() {
        lockstep_process::finish_on_signals(runs_programs);
    }
    let result = dispatch(cli.command);
    if lockstep_stop::interrupted() && lockstep_stop::stopped_by().is_none() {
        // The signal's thread is killing the programs and will exit with the
        // signal's code; what this thread would report is moot.
        loop {
            std::thread::park();
        }
    }
    if runs_programs {
        lockstep_process::shutdown();
    }
    // A report that could not be written is a job not done, whatever the
    // job found (its findings are in the corpus or a fallback file already).
    if let Err(e) = stdout_written() {
        if let Err(first) = &result {
            errln!("error: {first:#}");
        }
        errln!("error: writing the report to stdout: {e}");
        return Exit::Error.code();
    }
    match result {
        // Stopped by a signal: said so, whatever was found. An error then
        // is most often the stop's own doing (a program refused to start
        // while lockstep is stopping): said, and still the signal's code.
        _ if lockstep_stop::stopped_by().is_some() => {
            if let Err(e) = &result {
                errln!("error: {e:#}");
            }
            Exit::Stopped(lockstep_stop::stopped_by().unwrap_or(2)).code()
        }
        Ok(exit) => exit.code(),
        Err(e) => {
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return Exit::Clean.code();
            }
            errln!("error: {e:#}");
            Exit::Error.code()
        }
    }
}

/// Every option of every command takes a value that starts with `-` and a
/// digit (`--seed -5`) as its value, so that its value parser says what is
/// wrong with it ("must not be negative") rather than clap calling it an
/// unknown flag and suggesting `-- -5`, which would not help.
fn numbers_may_be_negative(command: clap::Command) -> clap::Command {
    let names: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut command = command.mut_args(|arg| {
        let takes_values = arg.get_action().takes_values();
        arg.allow_negative_numbers(takes_values)
    });
    for name in names {
        command = command.mut_subcommand(name, numbers_may_be_negative);
    }
    command
}

fn dispatch(command: Command) -> Result<Exit> {
    match command {
        Command::Solve(args) => solve::solve(args),
        Command::Fuzz(args) => fuzz::fuzz(args),
        Command::Verify(args) => verify::verify(args),
        Command::Replay(args) => replay::replay(args),
        Command::Shrink(args) => shrink::shrink(args),
        Command::Triage(args) => triage::triage(args),
        Command::Import(args) => import::import(args),
        Command::Report(args) => report::report(args),
        Command::Corpus(args) => corpus::corpus(args),
        Command::Stress(args) => stress::stress(args),
        Command::Bench(args) => bench::bench(args),
        Command::Duel(args) => duel::duel(args),
        Command::Perft(args) => perft::perft(args),
        Command::Test(args) => test::test(args),
        Command::Languages(args) => languages::languages(args),
    }
}

#[cfg(test)]
mod tests;
