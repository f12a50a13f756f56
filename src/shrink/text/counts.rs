//! How the shrinker learns an input's counts: a removal that alone makes an
//! invalid input is tried again with an earlier integer lowered by what went
//! (the likeliest counts first, those that worked before ahead of all), and a
//! count that worked is remembered for its unit.

use super::doc::{Doc, Region, Unit};
use super::{Search, Trial, COUNT_GUESSES};
use crate::shrink::Stop;

impl<F: FnMut(&str) -> Trial> Search<'_, F> {
    /// Removes `region` from `doc` if what is left still fails: alone, or
    /// with a count decremented. The first *valid* candidate settles it: if
    /// it passes, the removal took the failure with it, whatever count would
    /// have gone with it, and no more pairs are tried.
    pub(super) fn remove(&mut self, doc: &Doc, region: Region) -> Result<Option<Doc>, Stop> {
        self.last_valid = false;
        let plain = region.remove_from(doc);
        let amounts = amounts(region, doc);
        // A count that worked before, if one comes before the region.
        let learned: Vec<u32> = self
            .learned
            .iter()
            .filter(|&&(id, unit)| {
                unit == region.unit() && doc.find(id).is_some_and(|(l, i)| region.follows(l, i))
            })
            .map(|&(id, _)| id)
            .collect();
        if let Some(settled) = self.paired(&plain, region.unit(), &learned, &amounts)? {
            return Ok(settled);
        }
        match self.ask(&plain)? {
            Trial::Fails => {
                self.last_valid = true;
                self.steps += 1;
                return Ok(Some(plain));
            }
            Trial::Passes => {
                self.last_valid = true;
                return Ok(None);
            }
            Trial::Invalid => {}
        }
        let guessed = guesses(doc, region, &learned);
        Ok(self
            .paired(&plain, region.unit(), &guessed, &amounts)?
            .flatten())
    }

    /// `plain` with each of `counts` lowered by each of `amounts` in turn:
    /// `Some(Some(doc))` for the first that fails, `Some(None)` if the first
    /// valid one passes, `None` if all were invalid.
    fn paired(
        &mut self,
        plain: &Doc,
        unit: Unit,
        counts: &[u32],
        amounts: &[usize],
    ) -> Result<Option<Option<Doc>>, Stop> {
        for &id in counts {
            for &amount in amounts {
                let Some(paired) = plain.decremented(id, amount) else {
                    continue;
                };
                let verdict = self.ask(&paired)?;
                self.last_valid |= verdict != Trial::Invalid;
                match verdict {
                    Trial::Fails => {
                        self.steps += 1;
                        self.learn(id, unit);
                        self.count_edits += 1;
                        return Ok(Some(Some(paired)));
                    }
                    Trial::Passes => return Ok(Some(None)),
                    Trial::Invalid => {}
                }
            }
        }
        Ok(None)
    }

    fn learn(&mut self, id: u32, unit: Unit) {
        self.learned.retain(|&l| l != (id, unit));
        self.learned.insert(0, (id, unit));
    }
}

/// What a count may have to drop by when `region` goes: by as many lines or
/// tokens or characters (N then N items), by the tokens of the lines (N
/// numbers laid out over several lines), by one (T test cases of several
/// lines), or by half (M pairs on one line).
pub(super) fn amounts(region: Region, doc: &Doc) -> Vec<usize> {
    let removed = region.len();
    let tokens = match region {
        Region::Lines { start, len } => doc.lines[start..start + len].iter().map(Vec::len).sum(),
        _ => removed,
    };
    let mut out = vec![removed];
    for extra in [tokens, 1, removed / 2] {
        if extra > 0 && !out.contains(&extra) {
            out.push(extra);
        }
    }
    out
}

/// The integers before `region` most likely to count what it held, not yet
/// learned for this unit: the likeliest first, at most [`COUNT_GUESSES`]. A
/// number counts what `region` removes when it equals what follows it in one
/// of the usual layouts: for lines, the lines after it (from a line of one or
/// two numbers) or the tokens after it (N numbers over several lines); for
/// tokens, the tokens after it or on the lines after its own (`n S`, then n
/// numbers), the next line's tokens, or the rest of its own line (from the
/// first token); for characters, the next line's word. Those
/// come first, the ones on earlier
/// lines before the ones beside the region. For a removal of whole lines the
/// first line's other numbers follow (where counts live); a removal inside a
/// line tries only numbers that count something, since most lines of fixed
/// shape (an edge `u v w`) would otherwise cost a guess per token.
pub(super) fn guesses(doc: &Doc, region: Region, learned: &[u32]) -> Vec<u32> {
    let total: usize = doc.lines.iter().map(Vec::len).sum();
    let mut before = 0usize;
    let mut scored = Vec::new();
    for (l, line) in doc.lines.iter().enumerate() {
        for (i, token) in line.iter().enumerate() {
            before += 1;
            if !region.follows(l, i) || learned.contains(&token.id) {
                continue;
            }
            let Some(value) = token.integer() else {
                continue;
            };
            if value < 1 {
                continue;
            }
            let counts = |n: usize| value == n as i128;
            let next = doc.lines.get(l + 1).map(Vec::as_slice);
            let next_word = match next {
                Some([word]) => word.text.chars().count(),
                _ => 0,
            };
            let on_later_lines = total - before - (line.len() - i - 1);
            let counts_something = match region.unit() {
                Unit::Lines => {
                    counts(total - before) || (line.len() <= 2 && counts(doc.lines.len() - l - 1))
                }
                Unit::Tokens => {
                    counts(total - before)
                        || counts(on_later_lines)
                        || next.is_some_and(|n| counts(n.len()))
                        || (i == 0 && counts(line.len() - 1))
                }
                Unit::Chars => counts(next_word),
            };
            let score = match (counts_something, l < region.first_line()) {
                (true, true) => 0,
                (true, false) => 1,
                _ if l == 0 && matches!(region, Region::Lines { .. }) => 2,
                _ => continue,
            };
            // Nearer counts before farther ones of the same score.
            scored.push((score, usize::MAX - before, token.id));
        }
    }
    scored.sort_unstable();
    scored
        .into_iter()
        .take(COUNT_GUESSES)
        .map(|(_, _, id)| id)
        .collect()
}
