//! Bug signatures: a short, stable name for what a disagreement *is*, so that a
//! night's thousand findings of one bug read as one bug with a thousand
//! examples, and two bugs as two.
//!
//! ClusterFuzz groups crashes by their top stack frames, which says little for
//! a Rust panic and nothing for a wrong answer. lockstep knows more: the
//! answers of both sides. A signature is `<module>:<what differs>`, where
//! what differs is built from the answers, never from where the case came
//! from: by default the kind of the first answer line that differs on each
//! side (numbers folded away: `move-n-is-invalid`), and for each puzzle what
//! its adapter knows of the point where the two part (the kind of the move a
//! checkers core misjudged, the state fields a duel line got wrong, the
//! value a search got wrong) through [`Puzzle::signature`].
//!
//! The signature is computed from the case, both answers, and the core under
//! test as a black box (a deliberately broken solver in the tests is as good
//! as a real core), so that it means the same for `lockstep fuzz`, triage of
//! cargo-fuzz artifacts and the tests' planted bugs.

use crate::puzzle::{Attempt, Puzzle};
use lockstep_core::Model;
use lockstep_text::judge_lines;

/// The most characters of one part of a signature.
const PART_CHARS: usize = 48;

/// Words folded for a signature: lower case, every run of digits `n`, every
/// other run of non-letters one `-`, cut to a few dozen characters.
pub fn folded(text: &str) -> String {
    let mut out = String::new();
    let mut last_dash = true;
    let mut in_number = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('n');
            }
            in_number = true;
            last_dash = false;
            continue;
        }
        in_number = false;
        if c.is_alphabetic() {
            out.extend(c.to_lowercase());
            last_dash = false;
        } else if !last_dash {
            out.push('-');
            last_dash = true;
        }
    }
    let out = out.trim_matches('-');
    out.chars()
        .take(PART_CHARS)
        .collect::<String>()
        .trim_end_matches('-')
        .to_string()
}

/// What differs between two judge outputs: the folded first line where they
/// part, core's then the reference's (`end` for a missing line), or
/// `same-answers` when only the traces differ.
pub fn first_line_difference(core: &str, reference: &str) -> String {
    let (core, reference) = (judge_lines(core), judge_lines(reference));
    let n = core.len().max(reference.len());
    for i in 0..n {
        let (c, r) = (core.get(i), reference.get(i));
        if c != r {
            let side = |line: Option<&&str>| line.map_or_else(|| "end".to_string(), |l| folded(l));
            return format!("{}/{}", side(c), side(r));
        }
    }
    "same-answers".to_string()
}

/// What differs in a disagreement: a panic by its side and message; else,
/// when both answered, what the puzzle says ([`Puzzle::signature`]) given
/// the first differing answer line ([`first_line_difference`]).
fn what_differs<P: Puzzle>(
    case: &P::Case,
    core: &Attempt<P::Answer>,
    reference: &Attempt<P::Answer>,
    solver: crate::puzzle::Solver<P>,
) -> String {
    match (core, reference) {
        (Attempt::Panicked(message), _) => format!("core-panics-{}", folded(first_line(message))),
        (_, Attempt::Panicked(message)) => {
            format!("reference-panics-{}", folded(first_line(message)))
        }
        (Attempt::Ran(c), Attempt::Ran(r)) => {
            let lines = first_line_difference(
                &P::Case::write_answer(&c.answer),
                &P::Case::write_answer(&r.answer),
            );
            P::signature(crate::puzzle::Answers {
                case,
                core: &c.answer,
                reference: &r.answer,
                lines,
                solver,
            })
        }
        _ => "reference-out-of-fuel".to_string(),
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// A disagreement's whole signature: the puzzle's module, then what its
/// adapter says differs ([`Puzzle::signature`]).
pub fn signature_of<P: Puzzle>(
    case: &P::Case,
    core: &Attempt<P::Answer>,
    reference: &Attempt<P::Answer>,
    solver: crate::puzzle::Solver<P>,
) -> String {
    format!(
        "{}:{}",
        P::MODULE,
        what_differs::<P>(case, core, reference, solver)
    )
}

#[cfg(test)]
mod tests;
