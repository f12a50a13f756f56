//! The judge: what every command that judges a program stands on (each
//! flavour of stress, test sets, the duel's start-up check). It runs a
//! program under its limits (`program.rs`), compares its output with the
//! answer ([`compare`]) or has a testlib checker judge it ([`checker`]),
//! connects an interactive solution to its interactor ([`interactive`]),
//! and gives one [`Verdict`] in one vocabulary (OK, WA, PE, RE, TLE, ILE,
//! MLE, OLE); `verdicts.rs` adds a run's verdicts up.
//!
//! The judge knows nothing of puzzles or searches: it is handed a command,
//! an input and limits, and says how the program did.

use lockstep_process::{Execution, ProgramEnd, Resources};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

pub mod checker;
pub mod compare;
mod error;
pub mod interactive;
pub mod lang;
pub mod mutants;
mod program;
pub mod shrink;
pub mod stress;
pub mod test_set;
mod verdicts;

pub use compare::Comparison;
pub use error::JudgeError;
pub(crate) use program::tool;
pub use program::{check_command, check_command_timed, run_program};
pub use verdicts::{by_kind, list_failing, list_flaky, MemoryFigures, Verdicts};

/// How a program did on one case: the one vocabulary of every judged run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    /// Wrong answer: the first difference, or what the checker or the
    /// interactor said.
    WrongAnswer(String),
    /// testlib's presentation error (an interactor's exit code 2), with
    /// what it said; counted among the wrong answers.
    PresentationError(String),
    /// Non-zero exit or a signal, with the end of stderr.
    RuntimeError {
        status: String,
        stderr: String,
    },
    /// Over the CPU time limit; or, in an interaction, a deadlock, with the
    /// words that say so.
    TimeLimit(Option<String>),
    /// Still running at the wall-time limit without having spent its CPU
    /// time: a program that sleeps or waits (Codeforces' "idleness limit
    /// exceeded").
    IdleLimit,
    /// Used more memory than the limit.
    MemoryLimit,
    /// Wrote more than the output limit (killed at once).
    OutputLimit,
}

impl Verdict {
    /// The judges' short name: OK, WA, PE, RE, TLE, ILE, MLE, OLE. While
    /// shrinking, the same code is the same failure.
    pub fn code(&self) -> &'static str {
        self.failed().map_or("OK", Failed::code)
    }

    /// The kind of failure it is; `None` for OK.
    pub fn failed(&self) -> Option<Failed> {
        Some(match self {
            Verdict::Ok => return None,
            Verdict::WrongAnswer(_) => Failed::WrongAnswer,
            Verdict::PresentationError(_) => Failed::PresentationError,
            Verdict::RuntimeError { .. } => Failed::RuntimeError,
            Verdict::TimeLimit(_) => Failed::TimeLimit,
            Verdict::IdleLimit => Failed::IdleLimit,
            Verdict::MemoryLimit => Failed::MemoryLimit,
            Verdict::OutputLimit => Failed::OutputLimit,
        })
    }

    /// The kind of a verdict a check calls a failure (never OK).
    pub fn failure(&self) -> Failed {
        self.failed().expect("a failure is never OK")
    }

    /// The code in words, for a corpus row's name.
    pub fn slug(&self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::WrongAnswer(_) => "wrong-answer",
            Verdict::PresentationError(_) => "presentation-error",
            Verdict::RuntimeError { .. } => "runtime-error",
            Verdict::TimeLimit(_) => "time-limit",
            Verdict::IdleLimit => "idleness-limit",
            Verdict::MemoryLimit => "memory-limit",
            Verdict::OutputLimit => "output-limit",
        }
    }

    /// What a report says of a failing run `run` under `limits`, after the
    /// program's output: the first difference, the exit and stderr, the
    /// limit it went over. `passed` is said of a run that passed (a failure
    /// that did not come back).
    pub fn detail(&self, run: &Execution, limits: &Resources, passed: &str) -> String {
        match self {
            Verdict::Ok => format!("{passed}\n"),
            Verdict::WrongAnswer(diff) | Verdict::PresentationError(diff) => {
                format!("first difference: {diff}\n")
            }
            Verdict::RuntimeError { status, stderr } => format!(
                "{status}; stderr ends with:\n{}",
                lockstep_text::indent(stderr)
            ),
            Verdict::TimeLimit(Some(why)) => format!("{why}\n"),
            Verdict::TimeLimit(None) => format!(
                "spent more than {} ms of CPU time ({} ms of wall time): killed\n",
                limits.time.as_millis(),
                run.elapsed.as_millis()
            ),
            Verdict::IdleLimit => format!(
                "still running after {} ms of wall time, having spent {} ms of CPU time: killed (a program that sleeps or waits; --wall-ms sets this limit)\n",
                limits.wall.as_millis(),
                run.cpu.as_millis()
            ),
            Verdict::OutputLimit => format!("wrote more than {} bytes: killed\n", limits.output),
            Verdict::MemoryLimit => memory_limit_detail(run, limits.memory),
        }
    }
}

pub(crate) fn describe_status(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => "unknown exit".to_string(),
    }
}

/// The last lines of a program's stderr, for a report.
pub(crate) fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// What a report says of an MLE run: the limit, the peak seen, and the end
/// of stderr when the program said why it stopped.
pub fn memory_limit_detail(run: &Execution, limit: Option<u64>) -> String {
    let limit = limit.map_or("the limit".to_string(), lockstep_process::human_bytes);
    let peak = run.memory.map_or(String::new(), |p| {
        format!(" (peak {})", lockstep_process::human_bytes(p))
    });
    match tail(&run.stderr, 5) {
        said if said.trim().is_empty() => format!("used more than {limit} of memory{peak}\n"),
        said => format!(
            "ran out of memory under {limit}{peak}; stderr ends with:\n{}",
            lockstep_text::indent(&said)
        ),
    }
}

/// Judges one program run against the oracle's output, compared as
/// `comparison` says.
pub fn judge(expected: &str, run: &Execution, comparison: Comparison) -> Verdict {
    match run.ending {
        ProgramEnd::TimeLimit => Verdict::TimeLimit(None),
        ProgramEnd::WallLimit => Verdict::IdleLimit,
        ProgramEnd::MemoryLimit => Verdict::MemoryLimit,
        ProgramEnd::OutputLimit => Verdict::OutputLimit,
        ProgramEnd::Exited(status) if !status.success() => Verdict::RuntimeError {
            status: describe_status(status),
            stderr: tail(&run.stderr, 10),
        },
        ProgramEnd::Exited(_) => match comparison.difference(expected, &run.stdout) {
            None => Verdict::Ok,
            Some(diff) => Verdict::WrongAnswer(diff),
        },
    }
}

/// The timing verdict (TLE, ILE) a run's first try had when it passed only
/// when run again ([`run_program`]); `None` for a run taken at its first try.
pub fn flaky_code(run: &Execution) -> Option<&'static str> {
    run.flaky.as_ref().map(|first| match first.ending {
        ProgramEnd::WallLimit => "ILE",
        _ => "TLE",
    })
}

/// What kind of failure a verdict is: the verdict without its details, in
/// the order failures are reported and shrunk in (its `Ord`). `Display` and
/// the JSON documents give its code (WA, PE, RE, TLE, ILE, MLE, OLE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Failed {
    WrongAnswer,
    PresentationError,
    RuntimeError,
    TimeLimit,
    IdleLimit,
    MemoryLimit,
    OutputLimit,
}

impl Failed {
    /// Every kind, in report order.
    pub const ALL: [Failed; 7] = [
        Failed::WrongAnswer,
        Failed::PresentationError,
        Failed::RuntimeError,
        Failed::TimeLimit,
        Failed::IdleLimit,
        Failed::MemoryLimit,
        Failed::OutputLimit,
    ];

    /// The judges' short name.
    pub fn code(self) -> &'static str {
        match self {
            Failed::WrongAnswer => "WA",
            Failed::PresentationError => "PE",
            Failed::RuntimeError => "RE",
            Failed::TimeLimit => "TLE",
            Failed::IdleLimit => "ILE",
            Failed::MemoryLimit => "MLE",
            Failed::OutputLimit => "OLE",
        }
    }
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl serde::Serialize for Failed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}
