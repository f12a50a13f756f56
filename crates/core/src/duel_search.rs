//! The duel bots' searches as a puzzle of their own: a case is one state line
//! (the state part of a `duel step` line, 23 numbers), the answer is, for
//! player 1 then player 2, the depth-one maximin value of the `search1` bot,
//! the maximin value of the default bot's race search, and the race search's
//! fewest losing replies: `V1 V2 R1 R2 L1 L2`.
//!
//! The searches themselves live beside the duel engine
//! ([`crate::duel::search`]); this module gives them the judge-format face
//! every puzzle has.

use crate::duel::{parse_turn, search, write_state, State};
use crate::input::{InputError, Lines};
use crate::Run;

/// `[V1, V2, R1, R2, L1, L2]`: the `search1` maximin values, the race
/// search's values and its fewest losing replies, player 1 first in each pair.
pub type Values = [i32; 6];

/// The answer from each player's plain value and race (value, losses).
pub fn values(plain: [i32; 2], race: [(i32, u32); 2]) -> Values {
    let [(r1, l1), (r2, l2)] = race;
    [plain[0], plain[1], r1, r2, l1 as i32, l2 as i32]
}

/// The four pruned searches (two per player). No trace: the digest is 0.
fn solve(state: &State) -> Run<Values> {
    // One searcher's buffers serve all four searches.
    let mut searcher = search::Searcher::new();
    let plain = [0, 1].map(|p| searcher.maximin(state, p, None).value);
    let race = [0, 1].map(|p| {
        let r = searcher.race(state, p, None);
        (r.value, r.losses)
    });
    Run {
        answer: values(plain, race),
        digest: 0,
    }
}

/// The judge's view of the puzzle: the judge-format I/O and the fast solver.
impl crate::Model for State {
    type Answer = Values;

    /// Reads one state line (the state part of a `duel step` line).
    fn parse(text: &str) -> Result<State, InputError> {
        let mut lines = Lines::checked(text)?;
        let Some(line) = lines.next_nonblank() else {
            return Err(InputError::new(
                1,
                "expected a state line, found end of input",
            ));
        };
        if let Some(extra) = lines.next_nonblank() {
            return Err(InputError::new(
                extra.number,
                "expected one state line, found another",
            ));
        }
        let raw = text.lines().nth(line.number - 1).unwrap_or("");
        if raw.contains('|') {
            return Err(InputError::new(
                line.number,
                "expected the state part only (23 numbers), found |",
            ));
        }
        if raw.split_whitespace().nth(23).is_some() {
            return Err(InputError::new(
                line.number,
                "expected 23 numbers in the state, found more",
            ));
        }
        // The step-line parser checks the state; the two waits added here always parse.
        Ok(parse_turn(&format!("{raw} | 0 0 | 0 0"), line.number)?.state)
    }

    /// The state line, newline-terminated.
    fn write_input(&self) -> String {
        write_state(self) + "\n"
    }

    /// The six values on one line.
    fn write_answer(answer: &Values) -> String {
        let words: Vec<String> = answer.iter().map(i32::to_string).collect();
        words.join(" ") + "\n"
    }

    fn solve(&self) -> crate::Run<Values> {
        solve(self)
    }
}
