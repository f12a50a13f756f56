//! Running the programs a judge runs: the program under test (one that
//! cannot start is its runtime error), the start-up check that a command
//! can be run at all, and the user's tools (generator, validator, brute
//! force), whose failure is said in words and blamed on the tool.

use super::tail;
use lockstep_process::{Ending, Execution, Resources};
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
    if !limits.confirm_timing || !first.ending.is_timing() || lockstep_process::interrupted() {
        return first;
    }
    let again = run_once(cmd, input, limits);
    if again.ending.is_timing() || lockstep_process::interrupted() {
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
        ending: Ending::Exited(ExitStatus::from_raw(127 << 8)),
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
pub fn check_command(cmd: &str, limits: Resources) -> Result<(), String> {
    // A directory cannot be run: the kernel says only "Permission denied".
    if let Some(first) = lockstep_process::program_words(cmd).first() {
        if first.contains('/') && std::path::Path::new(first).is_dir() {
            return Err(format!(
                "cannot start {cmd:?}: {first} is a directory, not a program"
            ));
        }
    }
    match lockstep_process::execute(cmd, "", limits) {
        Err(e) => Err(format!("cannot start {cmd:?}: {e}")),
        Ok(run) => match run.ending {
            // The shell's "not found" and "not executable".
            Ending::Exited(status) if matches!(status.code(), Some(126 | 127)) => Err(format!(
                "cannot start {cmd:?}: the shell says (exit code {}): {}",
                status.code().unwrap_or_default(),
                tail(&run.stderr, 1)
            )),
            // In a pipeline the shell's exit code is the last command's; its
            // complaint about a missing or unrunnable command is still on stderr.
            _ => match run.stderr.lines().find(|l| {
                l.starts_with("sh: ")
                    && (l.ends_with("not found") || l.ends_with("Permission denied"))
            }) {
                Some(line) => Err(format!("cannot start {cmd:?}: the shell says: {line}")),
                None => Ok(()),
            },
        },
    }
}

/// Why a run of one of the user's tools did not succeed, in words.
pub(crate) fn why(run: &Execution, limits: Resources) -> Option<String> {
    match run.ending {
        Ending::Exited(status) if status.success() => None,
        Ending::Exited(status) if run.stderr.trim().is_empty() => Some(format!(
            "{} (nothing on stderr)",
            super::describe_status(status)
        )),
        Ending::Exited(status) => Some(format!(
            "{}; stderr ends with:\n{}",
            super::describe_status(status),
            lockstep_search::text::indent(&tail(&run.stderr, 5))
        )),
        Ending::TimeLimit => Some(format!(
            "spent more than {} ms of CPU time: killed",
            limits.time.as_millis()
        )),
        Ending::WallLimit => Some(format!(
            "still running after {} ms of wall time, having spent {} ms of CPU time: killed",
            limits.wall.as_millis(),
            run.cpu.as_millis()
        )),
        // The flag is the solution's, but it raises the tools' limit too.
        Ending::OutputLimit => Some(format!(
            "wrote more than {} bytes: killed (the tools' output limit is the larger of --output-limit and {}M: raise it with --output-limit)",
            limits.output,
            lockstep_process::DEFAULT_OUTPUT_LIMIT >> 20
        )),
        Ending::MemoryLimit => Some(format!(
            "used more than {} of memory",
            lockstep_process::human_bytes(limits.memory.unwrap_or_default())
        )),
    }
}

/// Runs one of the user's tools; its run, or why it did not succeed.
pub fn tool(cmd: &str, input: &str, limits: Resources) -> (Result<Execution, String>, Duration) {
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
