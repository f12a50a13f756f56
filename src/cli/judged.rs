//! What every command that judges a program shares (`stress`, `stress any`,
//! `test`): the limits of each run (time, memory, output, start-up) and the
//! banner that says which are in force; and, for every command that runs
//! programs (the duel's too), the program flags' values made runnable: a
//! source file compiled through the cache, a command taken as it is.

use super::values::{byte_size, limit_ms, memory_size};
use anyhow::{bail, Result};
use lockstep_judge::lang::{resolve_program, Languages, Runnable};
use lockstep_judge::Comparison;
use lockstep_process::Resources;
use std::io::Write;
use std::time::Duration;

/// How a program's output is judged: by a testlib checker, or compared
/// with the expected answer.
#[derive(clap::Args, Debug, Clone)]
pub(super) struct JudgeFlags {
    /// For a problem with several right answers: `CHECKER input output
    /// answer` judges (testlib's convention: exit 0 accepts, 1 and 2 reject;
    /// 3, any other code or a crash is the checker's own failure); without it
    /// outputs are compared as --compare says.
    #[arg(long, value_parser = super::values::non_empty_command)]
    pub(super) checker: Option<String>,
    /// How the output is compared with the expected answer: lines (trailing
    /// spaces and final newlines aside; the default of every command, as
    /// the stricter: a pass is a pass under tokens too), tokens (the same
    /// whitespace-separated words, testlib's wcmp), exact, real:EPS
    /// (numbers within an absolute or relative error EPS, testlib's rule),
    /// yesno.
    #[arg(long, default_value = "lines", value_parser = super::values::comparison, conflicts_with = "checker")]
    pub(super) compare: Comparison,
}

/// How each run of the program under test is limited.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Resources per run")]
pub(super) struct ResourceFlags {
    /// CPU time limit per run of the program (user and system, as judges
    /// count it), in milliseconds; more is TLE. A source's language
    /// multiplies it (`lockstep languages`: Java x2, Python x3); a --cmd
    /// line is taken as it is, whatever it runs. At most a day.
    #[arg(long, default_value_t = 2000, value_parser = limit_ms)]
    timeout_ms: u64,
    /// Wall-clock limit per run, in milliseconds: still running then, having
    /// not spent its CPU time, is ILE (a program that sleeps or waits).
    /// Default: 10 times the CPU time limit. At most a day.
    #[arg(long, value_parser = limit_ms)]
    wall_ms: Option<u64>,
    /// Take a time limit (TLE, ILE) at its first run. By default a run that
    /// ends at one is run again, and one that then passes is reported as
    /// flaky and is no failure.
    #[arg(long)]
    strict_timing: bool,
    /// Memory limit per run (bytes, or with K, M, G): more peak resident
    /// memory is MLE. Enforced by a cgroup v2 where lockstep can have one,
    /// else by RLIMIT_AS (a JVM by -Xmx and its resident size); the banner
    /// says which. Without it, memory is measured only. At least 1M: no
    /// program starts in less (a C program's resident set alone is about a
    /// mebibyte), so a smaller limit would make every run MLE.
    #[arg(long, value_parser = memory_size)]
    memory_limit: Option<usize>,
    /// Output limit per run: more is OLE and the program is killed at once
    /// (bytes, or with K, M, G).
    #[arg(long, default_value = "16M", value_parser = byte_size)]
    output_limit: usize,
    /// Time for the start-up check, in milliseconds: the program runs once on
    /// an empty input to show that it starts (default: its time limit).
    #[arg(long, value_parser = limit_ms)]
    startup_ms: Option<u64>,
}

impl ResourceFlags {
    /// The limits of one run of `program` (its language's time multiplier
    /// applied).
    pub(super) fn per_run(&self, program: &Runnable) -> Resources {
        let time = program.scaled(Duration::from_millis(self.timeout_ms));
        Resources {
            time,
            wall: match self.wall_ms {
                Some(ms) => Duration::from_millis(ms),
                None => lockstep_process::default_wall(time),
            },
            output: self.output_limit,
            memory: self.memory_limit.map(|m| m as u64),
            confirm_timing: !self.strict_timing,
        }
    }

    /// Whether a memory limit was asked for.
    pub(super) fn memory_limited(&self) -> bool {
        self.memory_limit.is_some()
    }

    /// The limits of the start-up check.
    /// Its wall time is its time, not ten times it: the check only shows
    /// that the program starts, running out of time there is no failure,
    /// and a program that waits on an empty input must not hold it long.
    pub(super) fn startup(&self, program: &Runnable) -> Resources {
        let time = match self.startup_ms {
            Some(ms) => Duration::from_millis(ms),
            None => self.per_run(program).time,
        };
        Resources {
            time,
            wall: time,
            ..self.per_run(program)
        }
    }

    /// The start-up check of a tool (generator, brute force, validator,
    /// checker): the same time, no multiplier and no memory limit, which are
    /// the program under test's.
    pub(super) fn tool_startup(&self) -> Resources {
        Resources {
            memory: None,
            ..self.startup(&Runnable::command(""))
        }
    }

    /// The start-up check of the program under test ([`ResourceFlags::startup`]),
    /// with a warning on stderr when its wall limit leaves no run a chance:
    /// below the program's start-up (every run is ILE), or below the CPU
    /// time limit (a run is ILE before it can spend its CPU time).
    pub(super) fn check_start(&self, program: &Runnable) -> Result<(), lockstep_judge::JudgeError> {
        let started = lockstep_judge::check_command_timed(&program.command, self.startup(program))?;
        for warning in self.wall_warnings(program, started) {
            errln!("warning: {warning}");
        }
        Ok(())
    }

    /// What a short `--wall-ms` makes of the runs, given the program's
    /// start-up when measured.
    pub(super) fn wall_warnings(
        &self,
        program: &Runnable,
        started: Option<Duration>,
    ) -> Vec<String> {
        let limits = self.per_run(program);
        let Some(wall) = self.wall_ms else {
            return Vec::new();
        };
        let mut warnings = Vec::new();
        if let Some(started) = started.filter(|&s| s >= limits.wall) {
            warnings.push(format!(
                "--wall-ms {wall} is below the program's start-up ({} ms on an empty input): every run will be ILE",
                started.as_millis()
            ));
        } else if limits.wall < limits.time {
            warnings.push(format!(
                "--wall-ms {wall} is below the CPU time limit ({} ms): a run still going at {wall} ms is ILE before it can spend its CPU time",
                limits.time.as_millis()
            ));
        }
        warnings
    }

    /// `CPU time limit 2000 ms (python x3: 6000 ms), wall 60000 ms, memory
    /// limit 256 MiB by RLIMIT_AS (...)`: what the banner says of the limits.
    pub(super) fn banner(&self, program: &Runnable) -> String {
        let limits = self.per_run(program);
        let mut time = match &program.language {
            Some(language) if program.time_factor != 1.0 => format!(
                "CPU time limit {} ms ({language} x{}: {} ms)",
                self.timeout_ms,
                program.time_factor,
                limits.time.as_millis()
            ),
            _ => format!("CPU time limit {} ms", self.timeout_ms),
        };
        if let Some(interpreter) = interpreted_command(program) {
            time.push_str(&format!(
                " (a --cmd line gets no {interpreter} multiplier; name the source file for one)"
            ));
        }
        time.push_str(&format!(", wall {} ms", limits.wall.as_millis()));
        if limits.wall < limits.time {
            time.push_str(" (below the CPU time limit: ILE comes first)");
        }
        if self.strict_timing {
            time.push_str(", time limits taken at the first run (--strict-timing)");
        }
        let memory = match self.memory_limit {
            Some(bytes) => format!(
                "memory limit {} by {}",
                lockstep_process::human_bytes(bytes as u64),
                lockstep_process::memory_guard()
            ),
            None => "memory measured, not limited".to_string(),
        };
        format!("{time}, {memory}")
    }
}

/// The interpreter or VM a command line starts (`python3`, `java`, ...),
/// when it is one a source's language multiplier would have applied to:
/// the multiplier is a source's, and a command is run as given.
fn interpreted_command(program: &Runnable) -> Option<&str> {
    if program.language.is_some() {
        return None;
    }
    let first = program.command.split_whitespace().next()?;
    let name = first.rsplit('/').next().unwrap_or(first);
    ["python", "pypy", "java", "kotlin", "node", "ruby", "php"]
        .iter()
        .any(|known| name.starts_with(known))
        .then_some(name)
}

/// The values of a command's program flags made runnable, with one line on
/// stderr for each source built or found built.
pub(super) struct ProgramFlags {
    languages: Option<Languages>,
}

impl ProgramFlags {
    pub(super) fn new() -> ProgramFlags {
        ProgramFlags { languages: None }
    }

    /// `value` of `flag` (`--cmd`, `--gen`, ...) made runnable; a compile
    /// error (CE) or a broken languages file stops the command (exit 2).
    pub(super) fn runnable(&mut self, flag: &str, value: &str) -> Result<Runnable> {
        // Read once, and only when a command has a program flag at all.
        let languages = match &mut self.languages {
            Some(languages) => languages,
            none => none.insert(Languages::load().map_err(anyhow::Error::msg)?),
        };
        // `--cmd NAME=` (the ladder's) is followed by its value directly.
        let shown = match flag.ends_with('=') {
            true => format!("{flag}{value}"),
            false => format!("{flag} {value}"),
        };
        match resolve_program(value, languages) {
            Ok(runnable) => {
                if let Some(made) = &runnable.made {
                    errln!("{shown}: {made}");
                }
                Ok(runnable)
            }
            Err(e) => bail!("{shown}: {e}"),
        }
    }

    /// [`ProgramFlags::runnable`] for a flag that may be absent.
    pub(super) fn optional(
        &mut self,
        flag: &str,
        value: Option<&String>,
    ) -> Result<Option<Runnable>> {
        value.map(|v| self.runnable(flag, v)).transpose()
    }
}
