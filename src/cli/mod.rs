//! The `lockstep` command line: argument parsing, output, and exit codes.
//!
//! Exit codes: 0 when all is well; 1 when lockstep found something (a disagreement,
//! a failing corpus row); 2 when it could not do its job (bad arguments, unreadable
//! input, I/O errors). Errors are one line on stderr.

use crate::bench::BenchOptions;
use crate::campaign::{CampaignOptions, Shard};
use crate::corpus;
use crate::process::Limits;
use crate::puzzle::{CaseLimits, Encoding};
use crate::registry::{self, AnyPuzzle};
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

mod args;
mod commands;
mod duel_commands;

use args::*;
use commands::*;
use duel_commands::*;

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
                command: DuelCommand::Referee { .. }
                    | DuelCommand::Tournament { .. }
                    | DuelCommand::Ladder { .. }
                    | DuelCommand::Stress { .. }
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

fn pick(names: &[String]) -> Result<Vec<&'static dyn AnyPuzzle>> {
    if names.is_empty() {
        return Ok(registry::all().to_vec());
    }
    // A puzzle named twice (either spelling) runs once, where it was first named.
    let mut entries: Vec<&'static dyn AnyPuzzle> = Vec::new();
    for name in names {
        let entry = lookup(name)?;
        if !entries.iter().any(|e| e.module() == entry.module()) {
            entries.push(entry);
        }
    }
    Ok(entries)
}

fn lookup(name: &str) -> Result<&'static dyn AnyPuzzle> {
    registry::find(name).with_context(|| {
        let known: Vec<&str> = registry::all().iter().map(|e| e.name()).collect();
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
    // Triage and shrink decode fuzzer bytes under LOCKSTEP_LIMITS, as the
    // targets generated them: a bad value would make every artifact "not
    // reproduced" (and settled), so it stops them before anything is read.
    if matches!(cli.command, Command::Triage { .. } | Command::Shrink { .. }) {
        if let Err(message) = crate::puzzle::CaseLimits::from_env() {
            bail!("{message}");
        }
    }
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
            shard,
        } => {
            let entries = pick(&puzzles)?;
            let options = CampaignOptions {
                shard,
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
            gen,
            brute,
            checker,
            validator,
            helper_timeout_ms,
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
            let timeout = std::time::Duration::from_millis(timeout_ms.unwrap_or(2000));
            let output_limit = output_limit.unwrap_or(crate::process::DEFAULT_OUTPUT_LIMIT);
            let startup = Limits {
                time: startup_ms.map_or(timeout, std::time::Duration::from_millis),
                output: output_limit,
            };
            let seconds = seconds.unwrap_or(if cases.is_some() { f64::INFINITY } else { 30.0 });
            let jobs = jobs.unwrap_or_else(default_jobs);
            let shrink = crate::shrink::Budget {
                attempts: shrink_attempts as usize,
                time: Some(std::time::Duration::from_secs_f64(shrink_seconds)),
            };
            if let (Some(generator), Some(brute)) = (gen, brute) {
                let programs = crate::stress::any::Programs {
                    generator,
                    brute,
                    solution: cmd,
                    checker,
                    validator,
                };
                // Each program's start-up check, then the --dump directory.
                for (what, command) in [
                    ("--cmd", Some(&programs.solution)),
                    ("--gen", Some(&programs.generator)),
                    ("--brute", Some(&programs.brute)),
                    ("--validator", programs.validator.as_ref()),
                    ("--checker", programs.checker.as_ref()),
                ] {
                    if let Some(command) = command {
                        if let Err(message) = crate::stress::check_command(command, startup) {
                            bail!("{what}: {message}");
                        }
                    }
                }
                if let Some(dir) = &dump {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("--dump {}: creating it", dir.display()))?;
                }
                let options = crate::stress::any::AnyOptions {
                    programs,
                    max_cases: cases,
                    seconds,
                    limits: Limits {
                        time: timeout,
                        output: output_limit,
                    },
                    helper_time: std::time::Duration::from_millis(
                        helper_timeout_ms.unwrap_or(10_000),
                    ),
                    // Small enough that a C generator's atoi reads every seed.
                    seed: seed.unwrap_or_else(|| fresh_seed() % 1_000_000_000),
                    jobs,
                    progress: true,
                    keep_going,
                    shrink,
                    dump,
                };
                let save = save.unwrap_or_else(|| PathBuf::from("lockstep-stress.txt"));
                return stress_any(&options, &save);
            }
            let Some(puzzle) = puzzle else {
                bail!("name a puzzle, or give --gen and --brute to stress any problem");
            };
            let entry = lookup(&puzzle)?;
            // A bot is judged by the referee's rules and clock, not by an
            // oracle: its command has its own flags. Refused before anything
            // starts or is created.
            if entry.played_through_referee() {
                bail!(
                    "a {} bot is stressed with `lockstep duel stress --cmd CMD [--games N]` (the referee's rules and 1000 ms budget judge it)",
                    entry.name()
                );
            }
            // The program's start-up check, then the --dump directory.
            if let Err(message) = crate::stress::check_command(&cmd, startup) {
                bail!("{message}");
            }
            let seed = seed.unwrap_or_else(fresh_seed);
            if let Some(dir) = &dump {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("--dump {}: creating it", dir.display()))?;
            }
            let options = StressOptions {
                cmd,
                max_cases: cases,
                seconds,
                timeout,
                output_limit,
                case_limits: limits,
                keep_going,
                shrink,
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
