//! The column pass: the same columns out of every row of a block of rows of
//! equal width at once (a grid's column, a matrix's column), which no edit
//! of one row can make: each alone leaves rows of unequal width, an invalid
//! input. The width's count (the `c` of `r c`) goes down with it, found and
//! learned as any count is (counts.rs, [`Unit::Columns`]).

use super::doc::{Doc, Region, Token};
use super::{Search, Trial};
use lockstep_search::shrinking::Stop;

/// Rows of equal width: `rows` lines from line `first`, each one word of
/// `width` characters (`words`, a grid of `#.`) or `width` tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Block {
    pub(super) first: usize,
    pub(super) rows: usize,
    pub(super) words: bool,
    pub(super) width: usize,
}

/// A line's shape as a row: one word of two characters or more, or two
/// tokens or more. Other lines (empty, one character) are no grid's rows.
fn shape(line: &[Token]) -> Option<(bool, usize)> {
    match line {
        [word] => Some((true, word.text.chars().count())).filter(|&(_, w)| w >= 2),
        [] => None,
        tokens => Some((false, tokens.len())),
    }
}

/// The blocks of `doc`: runs of two rows or more of one shape. A run of
/// token rows whose first line counts the rest (`n m`, then n rows of m
/// numbers, when m happens to be 2) starts after that line: its columns are
/// not the matrix's.
pub(super) fn blocks(doc: &Doc) -> Vec<Block> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < doc.lines.len() {
        let key = shape(&doc.lines[start]);
        let mut end = start + 1;
        while end < doc.lines.len() && key.is_some() && shape(&doc.lines[end]) == key {
            end += 1;
        }
        if let Some((words, width)) = key {
            let mut first = start;
            let heads_the_rest = doc.lines[start]
                .iter()
                .any(|t| t.integer() == Some((end - start - 1) as i128));
            if !words && heads_the_rest && end - start > 2 {
                first += 1;
            }
            if end - first >= 2 {
                out.push(Block {
                    first,
                    rows: end - first,
                    words,
                    width,
                });
            }
        }
        start = end;
    }
    out
}

/// The width of the block that starts at `first` as `doc` is now.
pub(super) fn width_at(doc: &Doc, first: usize, words: bool) -> usize {
    match doc.lines.get(first).map(Vec::as_slice) {
        Some([word]) if words => word.text.chars().count(),
        Some(line) if !words => line.len(),
        _ => 0,
    }
}

impl<F: FnMut(&str) -> Trial> Search<'_, F> {
    /// Delta debugging over the columns of each block, down to one column.
    /// Blocks of token rows whose every column removal was invalid once (the
    /// edges `u v w` of a graph) are skipped at that width unless the round
    /// is thorough, as the token pass skips lines of a fixed shape.
    pub(super) fn drop_columns(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        for block in blocks(doc) {
            let fixed = !block.words && self.fixed_columns.contains(&block.width);
            if fixed && !self.thorough {
                self.skipped = true;
                continue;
            }
            let Block {
                first, rows, words, ..
            } = block;
            let width = |doc: &Doc| width_at(doc, first, words);
            let region = |start, len| Region::Columns {
                first,
                rows,
                words,
                start,
                len,
            };
            let (shrank, all_invalid) = self.delta(doc, width, region, true, 1)?;
            changed |= shrank;
            if !words && all_invalid && !fixed {
                self.fixed_columns.push(block.width);
            }
        }
        Ok(changed)
    }
}
