//! A stress failure as a corpus row: its name, the oracle's answer as
//! expected, a note in words, and a signature that says what kind of
//! failure it is without quoting the user's output.

use crate::stress::ProgramFailure;
use lockstep_harness::corpus::{self, Origin, Row};
use lockstep_harness::puzzle::Puzzle;
use lockstep_judge::Verdict;

/// The corpus row for a stress failure: the oracle's answer as expected.
pub fn failure_row<P: Puzzle>(failure: &ProgramFailure<P::Case>, cmd: &str) -> Row {
    Row {
        // A short hash of the input keeps names of different failures apart.
        name: format!(
            "stress-{}-{:06x}",
            failure.failed.slug(),
            short_hash(&failure.input)
        ),
        input: corpus::encode_for::<P>(&failure.input),
        expected: corpus::encode_for::<P>(&failure.expected),
        origin: Origin::Stress,
        note: format!(
            "{}; {} from `{cmd}`: {}",
            P::describe(&failure.shrunk),
            failure.failed.code(),
            match &failure.verdict {
                Verdict::WrongAnswer(diff) | Verdict::PresentationError(diff) => diff.clone(),
                Verdict::RuntimeError { status, .. } => status.clone(),
                Verdict::TimeLimit(_) => "over the time limit".to_string(),
                Verdict::IdleLimit => "over the wall-time limit".to_string(),
                Verdict::MemoryLimit => "over the memory limit".to_string(),
                Verdict::OutputLimit => "over the output limit".to_string(),
                Verdict::Ok => "passed when run again: not deterministic".to_string(),
            }
        ),
        signature: format!(
            "{}:stress-{}:{}",
            P::MODULE,
            failure.failed.slug(),
            output_difference(&failure.program.stdout, &failure.expected)
        ),
    }
}

/// A 24-bit hash of `text`, six hex digits in a name.
fn short_hash(text: &str) -> u64 {
    let mut digest = lockstep_core::digest::Digest::new();
    for chunk in text.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        digest.push(u64::from_le_bytes(word));
    }
    digest.value() & 0xff_ffff
}

/// What a stress signature says of the program's output: the first line
/// where it parts from the expected answer (`line-K`) and a short hash of
/// the program's line there with its numbers folded away (`end` hashed
/// when it printed no such line), never the line itself: the output is
/// the user's and may be anything (`hello world`), and a signature is a
/// stable kind, not a transcript. `same-lines` when the lines agree (a
/// verdict other than WA).
fn output_difference(program: &str, expected: &str) -> String {
    use lockstep_text::judge_lines;
    let (ours, theirs) = (judge_lines(program), judge_lines(expected));
    let Some(k) = (0..ours.len().max(theirs.len())).find(|&i| ours.get(i) != theirs.get(i)) else {
        return "same-lines".to_string();
    };
    let line = ours.get(k).map_or_else(
        || "end".to_string(),
        |l| lockstep_harness::signature::folded(l),
    );
    format!("line-{}-{:06x}", k + 1, short_hash(&line))
}
