//! Coupled edits: a removal that stays invalid with every count lowered is
//! tried once more with the labels above what went renumbered. Going from
//! `n = 2` to `n = 1` often needs three changes at once: the count, the item,
//! and every number that refers to an item by its label or position (a
//! vertex of a tree, a value of a permutation, the index of a query).
//!
//! Two readings of "label" are tried, for at most [`COUPLED_COUNTS`] counts:
//! *values* (the removal took the last occurrence of some numbers in
//! `0..=n`; every number in `0..=n` above one of them drops by how many of
//! them are below it), and *positions* (the removal took items `p..p+len` of
//! the `n` that follow the count; every number elsewhere in `p+len..=n`
//! drops by `len`). `n` is the count's value, which bounds what its items'
//! labels can be. That is at most four more candidates for a removal that
//! was invalid every other way, and none for one that a count alone made
//! valid.

use super::doc::{Doc, Region};
use super::{Search, Trial};
use lockstep_search::shrinking::Stop;

/// How many counts (learned first, then guessed) a removal is retried with
/// labels renumbered.
pub(super) const COUPLED_COUNTS: usize = 2;

/// One reading of which labels a removal took out.
struct Relabeling {
    /// The labels that went, sorted: every label above one drops by how many
    /// are below it.
    gone: Vec<i128>,
    /// Lines whose numbers are not labels of these items (the count's own
    /// line, the items' own lines for positions).
    skip: Vec<usize>,
}

impl<F: FnMut(&str) -> Trial> Search<'_, F> {
    /// `plain` (`doc` without `region`) with one of `counts` lowered by what
    /// went and the labels above renumbered, if one of those fails.
    pub(super) fn coupled(
        &mut self,
        doc: &Doc,
        plain: &Doc,
        region: Region,
        counts: &[u32],
    ) -> Result<Option<Doc>, Stop> {
        for &id in counts {
            let Some(at) = plain.find(id) else {
                continue;
            };
            let Some(bound) = plain.lines[at.0][at.1].integer() else {
                continue;
            };
            for relabeling in relabelings(doc, plain, region, (at, id), bound) {
                let Some(mut candidate) = plain.decremented(id, relabeling.gone.len()) else {
                    continue;
                };
                let protected: Vec<u32> = self.learned.iter().map(|&(c, _)| c).collect();
                if !relabeling.apply(&mut candidate, bound, id, &protected) {
                    continue;
                }
                let verdict = self.ask(&candidate)?;
                self.last_valid |= verdict != Trial::Invalid;
                if verdict == Trial::Fails {
                    self.steps += 1;
                    self.learn(id, region.unit());
                    self.count_edits += 1;
                    self.coupled_edits += 1;
                    return Ok(Some(candidate));
                }
            }
        }
        Ok(None)
    }
}

impl Relabeling {
    /// Renumbers `doc`'s labels in `0..=bound` above the ones that went,
    /// leaving the count `count`, the `protected` counts and the skipped
    /// lines alone; whether any number changed.
    fn apply(&self, doc: &mut Doc, bound: i128, count: u32, protected: &[u32]) -> bool {
        let mut changed = false;
        for (l, line) in doc.lines.iter_mut().enumerate() {
            if self.skip.contains(&l) {
                continue;
            }
            for token in line.iter_mut() {
                if token.id == count || protected.contains(&token.id) {
                    continue;
                }
                let Some(value) = token.integer() else {
                    continue;
                };
                let below = self.gone.iter().filter(|&&g| g < value).count() as i128;
                if value <= bound && below > 0 {
                    token.text = (value - below).to_string();
                    changed = true;
                }
            }
        }
        changed
    }
}

/// The two readings of what `region` took out of `doc` (`plain` is what is
/// left), for the count `id` at `at` whose value is `bound`.
fn relabelings(
    doc: &Doc,
    plain: &Doc,
    region: Region,
    (at, id): ((usize, usize), u32),
    bound: i128,
) -> Vec<Relabeling> {
    let count_line = at.0;
    let mut out = Vec::new();
    // Values: numbers of 0..=bound the removal held and nothing left holds.
    let left: std::collections::HashSet<i128> = plain
        .lines
        .iter()
        .flatten()
        .filter(|t| t.id != id)
        .filter_map(|t| t.integer())
        .collect();
    let mut gone: Vec<i128> = removed_numbers(doc, region)
        .into_iter()
        .filter(|v| (0..=bound).contains(v) && !left.contains(v))
        .collect();
    gone.sort_unstable();
    gone.dedup();
    if !gone.is_empty() {
        let skip = if region.first_line() == count_line {
            Vec::new()
        } else {
            vec![count_line]
        };
        out.push(Relabeling { gone, skip });
    }
    // Positions, counted from the first item after the count.
    let positions = match region {
        Region::Tokens { line, start, len } => {
            let p = if line == count_line {
                start.checked_sub(at.1)
            } else {
                Some(start + 1)
            };
            p.map(|p| (p, len, vec![line, count_line]))
        }
        Region::Lines { start, len } if start > count_line => {
            // The items' lines as they are after the removal.
            let items = count_line + 1..=count_line + (bound as usize).saturating_sub(len);
            let mut skip: Vec<usize> = items.collect();
            skip.push(count_line);
            Some((start - count_line, len, skip))
        }
        _ => None,
    };
    if let Some((p, len, skip)) = positions.filter(|&(p, ..)| p >= 1) {
        let gone = (p..p + len).map(|g| g as i128).collect();
        out.push(Relabeling { gone, skip });
    }
    out
}

/// The integers `region` removes from `doc` (none for characters).
fn removed_numbers(doc: &Doc, region: Region) -> Vec<i128> {
    let tokens: Vec<&super::doc::Token> = match region {
        Region::Lines { start, len } => doc.lines[start..start + len].iter().flatten().collect(),
        Region::Tokens { line, start, len } => doc.lines[line][start..start + len].iter().collect(),
        Region::Columns {
            first,
            rows,
            words: false,
            start,
            len,
        } => doc.lines[first..first + rows]
            .iter()
            .flat_map(|row| row.iter().skip(start).take(len))
            .collect(),
        Region::Chars { .. } | Region::Columns { .. } => Vec::new(),
    };
    tokens.into_iter().filter_map(|t| t.integer()).collect()
}
