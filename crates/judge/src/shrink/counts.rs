//! How the shrinker learns an input's counts: a removal that alone makes an
//! invalid input is tried again with an earlier integer lowered by what went
//! (the likeliest counts first, those that worked before ahead of all), and a
//! count that worked is remembered for its unit. The counts guessed are
//! numbers equal to what follows them ([`guesses`]), then, for whole lines,
//! the numbers on a short line that may head a block holding them, as one
//! test case's `n q` among several ([`headers`]). When every count left it
//! invalid, the removal is tried with labels renumbered too (coupled.rs).

use super::coupled::COUPLED_COUNTS;
use super::doc::{Doc, Region, Unit};
use super::{Search, Trial, COUNT_GUESSES};
use lockstep_search::shrinking::Stop;

/// What pairing a removal with counts came to.
enum Paired {
    /// This candidate fails: the removal is kept, with its count.
    Fails(Doc),
    /// The first valid candidate passes, with this count lowered.
    Passes(u32),
    /// Every candidate was invalid.
    Invalid,
}

impl<F: FnMut(&str) -> Trial> Search<'_, F> {
    /// Removes `region` from `doc` if what is left still fails: alone, with
    /// a count decremented, or with a count decremented and labels
    /// renumbered. The first *valid* candidate settles it: if it passes, the
    /// removal took the failure with it, whatever other count would have
    /// gone with it; only the labels that refer to what went are then tried
    /// renumbered (an index that now points at the next item).
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
        match self.paired(&plain, region.unit(), &learned, &amounts)? {
            Paired::Fails(kept) => return Ok(Some(kept)),
            Paired::Passes(count) => return self.coupled(doc, &plain, region, &[count]),
            Paired::Invalid => {}
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
        let mut paired = self.paired(&plain, region.unit(), &guessed, &amounts)?;
        let mut headed = Vec::new();
        if let Paired::Invalid = paired {
            let tried = [&learned[..], &guessed[..]].concat();
            let room = COUNT_GUESSES.saturating_sub(guessed.len());
            headed = headers(doc, region, &tried, room);
            paired = self.paired(&plain, region.unit(), &headed, &[region.len()])?;
        }
        match paired {
            Paired::Fails(kept) => Ok(Some(kept)),
            Paired::Passes(count) => self.coupled(doc, &plain, region, &[count]),
            Paired::Invalid => {
                let counts: Vec<u32> = learned
                    .iter()
                    .chain(&guessed)
                    .chain(&headed)
                    .copied()
                    .take(COUPLED_COUNTS)
                    .collect();
                self.coupled(doc, &plain, region, &counts)
            }
        }
    }

    /// `plain` with each of `counts` lowered by each of `amounts` in turn,
    /// up to the first valid candidate.
    fn paired(
        &mut self,
        plain: &Doc,
        unit: Unit,
        counts: &[u32],
        amounts: &[usize],
    ) -> Result<Paired, Stop> {
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
                        return Ok(Paired::Fails(paired));
                    }
                    Trial::Passes => return Ok(Paired::Passes(id)),
                    Trial::Invalid => {}
                }
            }
        }
        Ok(Paired::Invalid)
    }

    pub(super) fn learn(&mut self, id: u32, unit: Unit) {
        self.learned.retain(|&l| l != (id, unit));
        self.learned.insert(0, (id, unit));
    }
}

/// What a count may have to drop by when `region` goes: by as many lines or
/// tokens or characters (N then N items), by the tokens of the lines (N
/// numbers laid out over several lines), by one (T test cases of several
/// lines), or by half (M pairs on one line). A block's width drops by the
/// columns removed, and only by that.
pub(super) fn amounts(region: Region, doc: &Doc) -> Vec<usize> {
    let removed = region.len();
    if let Region::Columns { .. } = region {
        return vec![removed];
    }
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

/// Whether a number `value` on line `l` may head a block of lines that
/// holds the removed lines `start..start + len`: a short line (a header
/// such as one test case's `n q`), then at most two lines of the block's
/// own (an array of n values), then `value` counted lines that hold the
/// region and end within the input, the first of them shaped unlike the
/// line before it (the values, or `q` on a line of its own). An edge `u v`
/// among edges heads nothing: the edge after it is shaped like it.
fn heads(doc: &Doc, (start, len): (usize, usize), l: usize, value: usize) -> bool {
    doc.lines[l].len() <= 3
        && (0..=2).any(|skip| {
            let first = l + 1 + skip;
            start >= first
                && start + len <= first + value
                && first + value <= doc.lines.len()
                && doc.lines[first - 1].len() != doc.lines[first].len()
        })
}

/// For a removal of whole lines, the positive numbers before it that may
/// head a block holding them ([`heads`]), not among `tried`: the nearest
/// first, at most `room`. These are the counts of one test case among
/// several (its `q`, with q lines of queries after its values), which
/// [`guesses`] does not offer: they are not on the first line, nor do
/// they count to the end of the input. Such a count drops by the lines
/// removed only.
fn headers(doc: &Doc, region: Region, tried: &[u32], room: usize) -> Vec<u32> {
    let Region::Lines { start, len } = region else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for l in (0..start).rev() {
        for token in doc.lines[l].iter().rev() {
            if out.len() == room {
                return out;
            }
            let Some(value) = token.integer().and_then(|v| usize::try_from(v).ok()) else {
                continue;
            };
            if value >= 1 && !tried.contains(&token.id) && heads(doc, (start, len), l, value) {
                out.push(token.id);
            }
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
/// first token); for characters, the next line's word; for columns, the
/// block's width. Those come first, the ones on earlier lines before the
/// ones beside the region. For a removal of whole lines the first line's
/// other numbers follow (where counts live); a removal inside a line tries
/// only numbers that count something, since most lines of fixed shape (an
/// edge `u v w`) would otherwise cost a guess per token. The count of one
/// test case among several is none of these: [`headers`] offers it when
/// these have failed, in the room they leave.
pub(super) fn guesses(doc: &Doc, region: Region, learned: &[u32]) -> Vec<u32> {
    let total: usize = doc.lines.iter().map(Vec::len).sum();
    let width = match region {
        Region::Columns { first, words, .. } => super::columns::width_at(doc, first, words),
        _ => 0,
    };
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
                Unit::Columns => counts(width),
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
