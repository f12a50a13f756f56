//! An interaction judged: the solution's verdict, or the interactor's own
//! failure (the tool's, never blamed on the solution).
//!
//! testlib's convention is read strictly: the interactor's exit code 0 is
//! OK, 1 WA, 2 PE and 3 FAIL (its own failure); any other code, a signal,
//! or a Python traceback (a crashed Python program exits 1 as well) is a
//! crash. The solution's own limits come first (OLE, TLE, a deadlock as
//! TLE); then, when the interactor exited while the solution still ran,
//! the interactor's verdict, which is the cause of whatever the solution
//! did next (an end of file, a broken pipe); then the solution's RE.

use super::relay::{Interaction, InteractorEnd, SolutionEnd};
use crate::{describe_status, tail, Verdict};

/// What a program said on stderr, in one line for a report.
fn said(stderr: &str) -> String {
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    lockstep_text::clip(last.trim(), 200)
}

fn quoted_stderr(stderr: &str) -> String {
    if stderr.trim().is_empty() {
        " (nothing on stderr)".to_string()
    } else {
        format!(
            "; its stderr ends with:\n{}",
            lockstep_text::indent(&tail(stderr, 5))
        )
    }
}

/// The verdict on `x`, or why the interactor failed (the tool's failure).
pub(crate) fn judge(x: &Interaction, interactor_output: usize) -> Result<Verdict, String> {
    let stderr = &x.interactor_stderr;
    match &x.interactor {
        InteractorEnd::Hung(how) => return Err(format!("the interactor hangs: {how}")),
        InteractorEnd::OutputLimit => {
            return Err(format!(
                "the interactor wrote more than {interactor_output} bytes"
            ))
        }
        InteractorEnd::Exited(status) => {
            let traceback = stderr.contains("Traceback (most recent call last)");
            match status.code() {
                Some(3) => {
                    return Err(format!(
                        "the interactor failed (exit code 3, testlib's FAIL){}",
                        quoted_stderr(stderr)
                    ))
                }
                Some(0..=2) if !traceback => {}
                _ => {
                    return Err(format!(
                        "the interactor crashed ({}){}",
                        describe_status(*status),
                        quoted_stderr(stderr)
                    ))
                }
            }
        }
        InteractorEnd::Killed => {}
    }
    match &x.solution {
        SolutionEnd::OutputLimit => return Ok(Verdict::OutputLimit),
        SolutionEnd::TimeLimit => return Ok(Verdict::TimeLimit(None)),
        SolutionEnd::WallLimit => return Ok(Verdict::IdleLimit),
        SolutionEnd::Deadlock(waited) => {
            let last = x
                .transcript
                .last_from(super::transcript::Speaker::Solution)
                .map_or("it said nothing".to_string(), |e| {
                    format!("its last line: {:?}", e.text)
                });
            return Ok(Verdict::TimeLimit(Some(format!(
                "deadlock: the solution and the interactor both waited to read for {} ms ({last}); a line not flushed, or a read the protocol does not have",
                waited.as_millis()
            ))));
        }
        _ => {}
    }
    let code = match &x.interactor {
        InteractorEnd::Exited(status) => status.code().unwrap_or(0),
        _ => 0,
    };
    let rejected = |code: i32| {
        let said = said(stderr);
        let said = if said.is_empty() {
            "(it said nothing on stderr)".to_string()
        } else {
            said
        };
        match code {
            2 => Verdict::PresentationError(format!("the interactor says PE: {said}")),
            _ => Verdict::WrongAnswer(format!("the interactor says WA: {said}")),
        }
    };
    if x.interactor_first && code != 0 {
        return Ok(rejected(code));
    }
    if let SolutionEnd::Exited(status) = &x.solution {
        if !status.success() {
            return Ok(Verdict::RuntimeError {
                status: describe_status(*status),
                stderr: tail(&x.solution_stderr, 20),
            });
        }
    }
    Ok(match code {
        0 => Verdict::Ok,
        code => rejected(code),
    })
}
