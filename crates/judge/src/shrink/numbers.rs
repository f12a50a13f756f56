//! The shrinker's number passes: a repeated number renumbered everywhere at
//! once (a vertex label; when the smallest unused number is refused, the
//! smallest that keeps the failure by bisection, as `n x` with x = n needs),
//! and each integer lowered toward zero by bisection, to the smallest
//! magnitude that still fails.
//!
//! Bisection, not fixed steps: a failure that needs a sum past 2^31 or a
//! value just above a threshold stops at the threshold itself, whatever the
//! value's size. After `0`, the search halves the list of *round* magnitudes
//! (powers of two and of ten) between 0 and the value, so that 10^18 comes
//! down to its decade in six candidates instead of sixty halvings; a round
//! bound is then tried one step off (`2^31 - 1`, `1001`), since thresholds
//! sit there; then plain bisection between the two to the exact magnitude.
//! A number bisected before and not changed since is tried at `0` and one
//! step down only: every round after the one that bisected it costs two
//! candidates. A failure that is not monotone in the number (fails on even
//! values, say) may stop above a smaller failing value the bisection stepped
//! over; it still stops on one that fails.

use super::doc::{Doc, Region, Token};
use super::{Search, Trial};
use lockstep_search::shrinking::Stop;

impl<F: FnMut(&str) -> Trial> Search<'_, F> {
    /// Every occurrence of a repeated number at once, to the smallest
    /// positive number the input does not hold: a vertex label, say, which
    /// no single edit can change without breaking its edges. The largest
    /// first; learned counts are left alone.
    pub(super) fn renumber(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        let mut values: Vec<i128> = Vec::new();
        for token in doc.lines.iter().flatten() {
            if let Some(v) = token.integer() {
                if v >= 1 && !self.is_count(token.id) {
                    values.push(v);
                }
            }
        }
        values.sort_unstable();
        let mut repeated: Vec<i128> = values
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        repeated.dedup();
        for &value in repeated.iter().rev() {
            let present: std::collections::HashSet<i128> = doc
                .lines
                .iter()
                .flatten()
                .filter_map(Token::integer)
                .collect();
            let unused = (1..).find(|n| !present.contains(n)).unwrap_or(value);
            if unused >= value {
                continue;
            }
            let counts: Vec<u32> = doc
                .lines
                .iter()
                .flatten()
                .filter(|t| self.is_count(t.id))
                .map(|t| t.id)
                .collect();
            let relabeled = |doc: &Doc, to: i128| {
                let mut candidate = doc.clone();
                for token in candidate.lines.iter_mut().flatten() {
                    if token.integer() == Some(value) && !counts.contains(&token.id) {
                        token.text = to.to_string();
                    }
                }
                candidate
            };
            let candidate = relabeled(doc, unused);
            if self.keeps(&candidate)? {
                *doc = candidate;
                changed = true;
                continue;
            }
            // The smallest unused number is refused (a bound such as `2 <=
            // n`, where a test `n x` fails only with x = n): bisect between
            // it and the value for the smallest that still fails, every
            // occurrence at once. One candidate per round once bisected.
            let (mut refused, mut kept) = (unused, value);
            let mut best = None;
            while kept - refused > 1 {
                let mid = refused + (kept - refused) / 2;
                let candidate = relabeled(doc, mid);
                if self.keeps(&candidate)? {
                    kept = mid;
                    best = Some(candidate);
                } else {
                    refused = mid;
                }
            }
            if let Some(candidate) = best {
                *doc = candidate;
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Each integer but the learned counts lowered toward zero (see the
    /// module doc).
    /// Two integers side by side, in a line or on lines of their own, merged
    /// into their sum (the one edit that keeps a sum while losing a token: a
    /// failure that needs a total past a threshold has its minimum in one
    /// number), through [`Search::remove`] so that a count before them goes
    /// down with them. Counts learned are left alone. Whether it shrank.
    pub(super) fn merge_numbers(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        let mut l = 0;
        while l < doc.lines.len() {
            // A line of a fixed shape (an edge `u v w`: every token removal
            // was invalid) loses no token to a merge either.
            if self.fixed_widths.contains(&doc.lines[l].len()) {
                l += 1;
                continue;
            }
            let mut i = 0;
            while i < doc.lines[l].len() {
                // The next integer: on this line, or alone on the next line
                // when this one holds only this one.
                let next = match i + 1 < doc.lines[l].len() {
                    true => Some((l, i + 1)),
                    false => (doc.lines[l].len() == 1
                        && doc.lines.get(l + 1).is_some_and(|n| n.len() == 1))
                    .then_some((l + 1, 0)),
                };
                let merged = next.and_then(|(nl, ni)| {
                    let (a, b) = (&doc.lines[l][i], &doc.lines[nl][ni]);
                    if self.is_count(a.id) || self.is_count(b.id) {
                        return None;
                    }
                    Some((nl, ni, a.integer()?.checked_add(b.integer()?)?))
                });
                if let Some((nl, ni, sum)) = merged {
                    let mut base = doc.clone();
                    base.lines[l][i].text = sum.to_string();
                    let region = match nl == l {
                        true => Region::Tokens {
                            line: l,
                            start: ni,
                            len: 1,
                        },
                        false => Region::Lines { start: nl, len: 1 },
                    };
                    if let Some(smaller) = self.remove(&base, region)? {
                        *doc = smaller;
                        changed = true;
                        continue;
                    }
                }
                i += 1;
            }
            l += 1;
        }
        Ok(changed)
    }

    pub(super) fn lower_numbers(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        for l in 0..doc.lines.len() {
            for i in 0..doc.lines[l].len() {
                if !self.is_count(doc.lines[l][i].id) {
                    changed |= self.lower_number(doc, l, i)?;
                }
            }
        }
        Ok(changed)
    }

    /// Token `i` of line `l`, if an integer, to the smallest magnitude that
    /// still fails (see the module doc); whether it changed.
    fn lower_number(&mut self, doc: &mut Doc, l: usize, i: usize) -> Result<bool, Stop> {
        let token = &doc.lines[l][i];
        let Some(value) = token.integer() else {
            return Ok(false);
        };
        let magnitude = value.unsigned_abs();
        // Every magnitude tried is below the value's, so it fits an i128.
        let signed = |m: u128| if value < 0 { -(m as i128) } else { m as i128 };
        let tried = |search: &mut Self, doc: &mut Doc, m: u128| -> Result<bool, Stop> {
            let mut candidate = doc.clone();
            candidate.lines[l][i].text = signed(m).to_string();
            let fails = search.keeps(&candidate)?;
            if fails {
                *doc = candidate;
            }
            Ok(fails)
        };
        // Zero stays as it is written ("-0", "00").
        if magnitude == 0 {
            return Ok(false);
        }
        if tried(self, doc, 0)? {
            return Ok(true);
        }
        // One step down first: a number at its minimum already (one that
        // sets a sum exactly, or bisected in an earlier round) costs no more.
        if magnitude == 1 || !tried(self, doc, magnitude - 1)? {
            return Ok(false);
        }
        // `hi` fails; `lo` does not, or is 0, which was tried.
        let (mut lo, mut hi) = (0u128, magnitude - 1);
        // Round magnitudes first, halving the list of those in between.
        let mut round: Vec<u128> = round_numbers().filter(|&r| lo < r && r < hi).collect();
        while !round.is_empty() {
            let mid = round.len() / 2;
            if tried(self, doc, round[mid])? {
                hi = round[mid];
                round.truncate(mid);
            } else {
                lo = round[mid];
                round.drain(..=mid);
            }
        }
        // A threshold at a round number, or just above one.
        if is_round(hi) && hi - 1 > lo {
            if tried(self, doc, hi - 1)? {
                hi -= 1;
            } else {
                lo = hi - 1;
            }
        }
        if is_round(lo) && lo + 1 < hi {
            if tried(self, doc, lo + 1)? {
                hi = lo + 1;
            } else {
                lo += 1;
            }
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if tried(self, doc, mid)? {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Ok(true)
    }

    /// Whether token `id` proved to be a count (of any unit).
    pub(super) fn is_count(&self, id: u32) -> bool {
        self.learned.iter().any(|&(c, _)| c == id)
    }
}

/// The powers of two and of ten that fit an i128, ascending: where
/// thresholds usually are (`2^31`, `10^9`, "more than 1000").
fn round_numbers() -> impl Iterator<Item = u128> {
    let twos = (0..127).map(|k| 1u128 << k);
    let tens = (0..=38).map(|k| 10u128.pow(k));
    let mut all: Vec<u128> = twos.chain(tens).collect();
    all.sort_unstable();
    all.dedup();
    all.into_iter()
}

fn is_round(m: u128) -> bool {
    m.is_power_of_two() || (m > 0 && 10u128.pow(m.ilog10()) == m)
}
