//! Running the programs a judge runs: the program under test (one that
//! cannot start is its runtime error), the start-up check that a command
//! can be run at all, and the user's tools (generator, validator, brute
//! force), whose failure is said in words and blamed on the tool.

use super::tail;
use crate::JudgeError;
use lockstep_process::{Execution, ProgramEnd, Resources};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

/// The program under test run on `input`; one that cannot start is a
/// runtime error (exit code 127, as a shell would give), not an error of
/// lockstep's.
///
/// A run that ends at a time limit (CPU or wall) is run again, unless
/// `limits` say not to confirm (`--strict-timing`): a time limit is the
/// verdict only when the second run ends at one too. When the second run
/// does not, it is the run returned, with the first in its `flaky`, so that
/// a busy machine's hiccup is neither a failure nor shrunk as one. Other
/// verdicts are the program's own doing and are not run again.
pub fn run_program(cmd: &str, input: &str, limits: Resources) -> Execution {
    let first = run_once(cmd, input, limits);
    if !limits.confirm_timing || !first.ending.is_timing() || lockstep_stop::interrupted() {
        return first;
    }
    let again = run_once(cmd, input, limits);
    if again.ending.is_timing() || lockstep_stop::interrupted() {
        return first;
    }
    Execution {
        flaky: Some(Box::new(first)),
        ..again
    }
}

/// One run of the program under test.
fn run_once(cmd: &str, input: &str, limits: Resources) -> Execution {
    lockstep_process::execute(cmd, input, limits).unwrap_or_else(|e| Execution {
        ending: ProgramEnd::Exited(ExitStatus::from_raw(127 << 8)),
        stdout: String::new(),
        stderr: format!("could not start: {e}"),
        elapsed: Duration::ZERO,
        memory: None,
        cpu: Duration::ZERO,
        flaky: None,
    })
}

/// Checks that the command can be started at all, so that a typo is one clear
/// error rather than a runtime error on every case. The program gets an empty
/// input and `limits`; running out of time there is fine (it started).
pub fn check_command(cmd: &str, limits: Resources) -> Result<(), JudgeError> {
    check_command_timed(cmd, limits).map(|_| ())
}

/// [`check_command`], and the program's start-up: how long its run on the
/// empty input took from start to exit, when it exited by itself (a program
/// that waits for its input until the limit tells nothing of its start).
/// What a wall limit below it makes of every run: ILE.
pub fn check_command_timed(cmd: &str, limits: Resources) -> Result<Option<Duration>, JudgeError> {
    if let Some(problem) = cannot_start(&lockstep_process::program_words(cmd)) {
        return Err(JudgeError::Startup(format!(
            "cannot start {cmd:?}: {problem}"
        )));
    }
    let run = lockstep_process::execute(cmd, "", limits)
        .map_err(|e| JudgeError::Startup(format!("cannot start {cmd:?}: {e}")))?;
    let started = matches!(run.ending, ProgramEnd::Exited(_)).then_some(run.elapsed);
    startup_problem(cmd, &run).map_or(Ok(started), |why| Err(JudgeError::Startup(why)))
}

/// Why the start-up run says the command did not start: the shell's "not
/// found" or "not executable".
fn startup_problem(cmd: &str, run: &Execution) -> Option<String> {
    match run.ending {
        // The shell's "not found" and "not executable".
        ProgramEnd::Exited(status) if matches!(status.code(), Some(126 | 127)) => Some(format!(
            "cannot start {cmd:?}: the shell says (exit code {}): {}",
            status.code().unwrap_or_default(),
            tail(&run.stderr, 1)
        )),
        // In a pipeline the shell's exit code is the last command's; its
        // complaint about a missing or unrunnable command is still on stderr.
        _ => run
            .stderr
            .lines()
            .find(|l| {
                l.starts_with("sh: ")
                    && (l.ends_with("not found") || l.ends_with("Permission denied"))
            })
            .map(|line| format!("cannot start {cmd:?}: the shell says: {line}")),
    }
}

/// Whether a file named `name` is in a folder of the PATH.
pub(crate) fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()))
}

/// The interpreters whose first argument that is not an option is the
/// script they run: a missing script is a setup error, not the program's
/// runtime error (`python3 missing.py` says "can't open file" and exits 2
/// on every input, which the start-up run alone cannot tell from a
/// program that fails on an empty input).
const INTERPRETERS: &[&str] = &[
    "python", "python2", "python3", "pypy", "pypy3", "node", "ruby", "perl", "php", "bash", "sh",
    "dash", "zsh", "lua", "Rscript",
];

/// What makes the command's words unrunnable before it is run, in words:
/// a directory named as the program (the kernel would say only
/// "Permission denied"), a program in the current directory named
/// without `./` (the shell looks for it on the PATH only), an
/// interpreter's script that does not exist.
fn cannot_start(words: &[String]) -> Option<String> {
    use std::path::Path;
    let first = words.first()?;
    let on_path = || on_path(first);
    if Path::new(first).is_dir() {
        return Some(format!("{first}: is a directory, not a program"));
    }
    if !first.contains('/') && Path::new(first).is_file() && !on_path() {
        return Some(format!(
            "{first} is not on the PATH: a program in this directory is run as ./{first}"
        ));
    }
    let name = Path::new(first).file_name()?.to_str()?;
    if !INTERPRETERS.contains(&name) {
        return None;
    }
    // The script is the first word that is not an option and looks like a
    // path (a `/` or an extension: `-X dev`'s value does not); `-c CODE`,
    // `-m MODULE`, `-e CODE` run no file.
    for word in &words[1..] {
        match word.as_str() {
            "-c" | "-m" | "-e" | "-" => return None,
            w if w.starts_with('-') || !(w.contains('/') || w.contains('.')) => continue,
            w if Path::new(w).is_dir() => {
                return Some(format!("{name}'s script {w}: is a directory"))
            }
            w if !Path::new(w).exists() => {
                return Some(format!("{name}'s script {w}: no such file"))
            }
            _ => return None,
        }
    }
    None
}

/// Why a run of one of the user's tools did not succeed, in words.
pub(crate) fn why(run: &Execution, limits: Resources) -> Option<String> {
    match run.ending {
        ProgramEnd::Exited(status) if status.success() => None,
        ProgramEnd::Exited(status) if run.stderr.trim().is_empty() => Some(format!(
            "{} (nothing on stderr)",
            super::describe_status(status)
        )),
        ProgramEnd::Exited(status) => Some(format!(
            "{}; stderr ends with:\n{}",
            super::describe_status(status),
            lockstep_text::indent(&tail(&run.stderr, 5))
        )),
        ProgramEnd::TimeLimit => Some(format!(
            "spent more than {} ms of CPU time: killed",
            limits.time.as_millis()
        )),
        ProgramEnd::WallLimit => Some(format!(
            "still running after {} ms of wall time, having spent {} ms of CPU time: killed",
            limits.wall.as_millis(),
            run.cpu.as_millis()
        )),
        // The flag is the solution's, but it raises the tools' limit too.
        ProgramEnd::OutputLimit => Some(format!(
            "wrote more than {} bytes: killed (the tools' output limit is the larger of --output-limit and {}M: raise it with --output-limit)",
            limits.output,
            lockstep_process::DEFAULT_OUTPUT_LIMIT >> 20
        )),
        ProgramEnd::MemoryLimit => Some(format!(
            "used more than {} of memory",
            lockstep_process::human_bytes(limits.memory.unwrap_or_default())
        )),
    }
}

/// Runs one of the user's tools; its run, or why it did not succeed (in
/// words, which each caller puts in its own context).
pub(crate) fn tool(
    cmd: &str,
    input: &str,
    limits: Resources,
) -> (Result<Execution, String>, Duration) {
    match lockstep_process::execute(cmd, input, limits) {
        Err(e) => (Err(format!("could not start: {e}")), Duration::ZERO),
        Ok(run) => {
            let elapsed = run.elapsed;
            match why(&run, limits) {
                None => (Ok(run), elapsed),
                Some(why) => (Err(why), elapsed),
            }
        }
    }
}
