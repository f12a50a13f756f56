//! Shrinking a text input with no knowledge of its format: what `lockstep
//! stress any` uses on any problem's failing input.
//!
//! The input is read as lines of whitespace-separated tokens. Passes of delta
//! debugging drop chunks of lines (and, under a first line of one number
//! with lines of several shapes after it, chunks counted from the second
//! line, where test cases begin), then chunks of tokens within a line (halves
//! first, down to single ones), then chunks of columns of every row of a
//! block of rows of equal width at once (a grid's column: columns.rs), then
//! renumber each repeated number (every occurrence at once, as a vertex label
//! needs), then lower each integer toward zero by bisection to the smallest
//! magnitude that still fails, then merge two integers side by side into
//! their sum (numbers.rs), then drop chunks of characters
//! from each other token; they repeat until a whole round changes nothing (a
//! local minimum for every edit of those kinds) or the budget runs out.
//!
//! A candidate is judged by the caller's test: it still fails the same way,
//! it passes, or it is *invalid* (the validator or the brute force rejected
//! it). Invalid is what teaches the shrinker about counts: most formats put a
//! count before its data (`N`, then N numbers), so dropping data alone makes
//! an invalid input. When a removal is invalid, the shrinker tries it again
//! with an earlier integer decremented (by the number of lines or tokens
//! removed, or by one), the likeliest counts first: a number equal to how many
//! lines follow it, to the next line's length (in tokens, or in characters
//! when it is one word), to how many tokens follow it on its line, or to a
//! block's width; last, for whole lines, a number on a short line that may
//! head a block of lines holding them: one test case's `q` among several, its
//! block of q queries after its values, the first of them shaped unlike the
//! line before (counts.rs). A count that worked is remembered and tried
//! first from then on, and is left out of the number pass, where alone it
//! could only make the input invalid. When a count alone is not enough (every
//! count left the input invalid, or the count made it valid but passing), the
//! removal is tried with the labels above what went renumbered as well: a
//! tree's leaf, a permutation's value, the index of a query that pointed past
//! the removed item (coupled.rs).
//!
//! What it cannot do: edits of several places beyond those (a count, its
//! data, the columns of one block, the labels in `0..=count`), or keep
//! whitespace the failure depends on. Nor can it tell a query's type from
//! a label (the `2` of `2 l r` is renumbered with `l` and `r`), or drop a
//! test case that no chunk lines up with (three lines after `T` out of
//! seven: chunks of four, then two).
//!
//! Every candidate is rendered as text and asked at most once (a cache of
//! fingerprints);
//! the output keeps one space between tokens and a newline after each line.

use lockstep_search::shrinking::{Budget, Stop};
use std::collections::HashMap;
use std::time::Instant;

mod columns;
mod counts;
mod coupled;
mod doc;
mod numbers;

use doc::{Doc, Region, Unit};

/// What the caller's test says of a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trial {
    /// The program still fails on it, and the same way.
    Fails,
    /// The candidate is a valid input on which the failure is gone.
    Passes,
    /// The validator or the brute force rejected the candidate.
    Invalid,
}

/// The size of a text input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Size {
    pub lines: usize,
    pub tokens: usize,
    pub bytes: usize,
}

impl Size {
    pub fn of(text: &str) -> Size {
        Size {
            lines: text.lines().count(),
            tokens: text.split_whitespace().count(),
            bytes: text.len(),
        }
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        write!(
            f,
            "{} token{}, {} line{}, {} byte{}",
            self.tokens,
            s(self.tokens),
            self.lines,
            s(self.lines),
            self.bytes,
            s(self.bytes)
        )
    }
}

/// The result of [`shrink`].
#[derive(Debug, Clone)]
pub struct ShrunkText {
    pub text: String,
    pub before: Size,
    pub after: Size,
    /// Candidates run through the test (repeats come from the cache).
    pub attempts: usize,
    /// Candidates kept.
    pub steps: usize,
    /// Candidates the test called invalid.
    pub invalid: usize,
    /// Removals that went through only with a count decremented.
    pub count_edits: usize,
    /// Of those, the ones that also needed labels renumbered (coupled edits).
    pub coupled_edits: usize,
    /// Why it stopped; `None` when the text was left as it came because the
    /// failure needs its exact spacing (the shrinker rewrites whitespace).
    pub stop: Option<Stop>,
}

/// How many unproven counts one invalid removal is retried with.
const COUNT_GUESSES: usize = 4;

/// Shrinks `text` while `test` says [`Trial::Fails`], within `budget`.
/// `text` itself is taken to fail; `on_attempt` sees the size of the current
/// text and the attempts so far after every candidate (for a progress line).
pub fn shrink(
    text: &str,
    test: impl FnMut(&str) -> Trial,
    budget: Budget,
    on_attempt: &mut dyn FnMut(Size, usize),
) -> ShrunkText {
    let mut search = Search {
        test,
        cache: HashMap::new(),
        attempts: 0,
        invalid: 0,
        steps: 0,
        count_edits: 0,
        coupled_edits: 0,
        budget,
        deadline: budget.time.map(|t| Instant::now() + t),
        learned: Vec::new(),
        fixed_widths: Vec::new(),
        fixed_columns: Vec::new(),
        thorough: false,
        skipped: false,
        last_valid: false,
        current: Size::of(text),
        on_attempt,
    };
    let mut doc = Doc::parse(text);
    let before = Size::of(text);
    search.cache.insert(fingerprint(text), Trial::Fails);
    let finish = |search: Search<_>, doc: &Doc, stop| ShrunkText {
        text: doc.render(),
        before,
        after: Size::of(&doc.render()),
        attempts: search.attempts,
        steps: search.steps,
        invalid: search.invalid,
        count_edits: search.count_edits,
        coupled_edits: search.coupled_edits,
        stop,
    };
    let normal = doc.render();
    if normal != text {
        match search.ask(&doc) {
            Ok(Trial::Fails) => {}
            Ok(_) => {
                return ShrunkText {
                    text: text.to_string(),
                    after: before,
                    ..finish(search, &doc, None)
                }
            }
            Err(stop) => {
                return ShrunkText {
                    text: text.to_string(),
                    after: before,
                    ..finish(search, &doc, Some(stop))
                }
            }
        }
    }
    let stop = loop {
        search.skipped = false;
        match search.round(&mut doc) {
            Ok(true) => search.thorough = false,
            // Lines were skipped on a guess: a local minimum is claimed only
            // after a round that tried everything.
            Ok(false) if search.skipped => search.thorough = true,
            Ok(false) => break Stop::LocalMinimum,
            Err(stop) => break stop,
        }
    };
    finish(search, &doc, Some(stop))
}

struct Search<'a, F> {
    test: F,
    /// Verdicts by [`fingerprint`]: thousands of candidates of a large input
    /// would hold gigabytes as text.
    cache: HashMap<(usize, u64), Trial>,
    attempts: usize,
    invalid: usize,
    steps: usize,
    count_edits: usize,
    coupled_edits: usize,
    budget: Budget,
    deadline: Option<Instant>,
    /// Tokens that proved to be counts, with what they counted, the latest
    /// first.
    learned: Vec<(u32, Unit)>,
    /// Line lengths (in tokens) whose every token removal was invalid: lines
    /// of a fixed shape (an edge `u v w`), skipped by the token pass until a
    /// round changes nothing.
    fixed_widths: Vec<usize>,
    /// Widths of blocks of token rows whose every column removal was
    /// invalid, skipped by the column pass in the same way.
    fixed_columns: Vec<usize>,
    /// This round skips nothing.
    thorough: bool,
    /// This round skipped a line.
    skipped: bool,
    /// The last removal met a valid candidate (failing or passing).
    last_valid: bool,
    /// The size of the text kept so far.
    current: Size,
    on_attempt: &'a mut dyn FnMut(Size, usize),
}

impl<F: FnMut(&str) -> Trial> Search<'_, F> {
    /// The test's verdict on `doc`, from the cache when it was asked before.
    fn ask(&mut self, doc: &Doc) -> Result<Trial, Stop> {
        let text = doc.render();
        let key = fingerprint(&text);
        if let Some(&verdict) = self.cache.get(&key) {
            return Ok(verdict);
        }
        if self.attempts >= self.budget.attempts {
            return Err(Stop::Attempts);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Time);
        }
        if lockstep_stop::interrupted() {
            return Err(Stop::Interrupted);
        }
        self.attempts += 1;
        let verdict = (self.test)(&text);
        // A signal during the trial killed its programs: its verdict is
        // the kill's, neither kept nor cached, and the shrink ends with
        // the smallest failing input so far.
        if lockstep_stop::interrupted() {
            return Err(Stop::Interrupted);
        }
        if verdict == Trial::Invalid {
            self.invalid += 1;
        }
        if verdict == Trial::Fails {
            // The search is greedy: a failing candidate is kept at once.
            self.current = Size::of(&text);
        }
        self.cache.insert(key, verdict);
        (self.on_attempt)(self.current, self.attempts);
        Ok(verdict)
    }

    /// Whether `candidate` fails, counting a kept step.
    fn keeps(&mut self, candidate: &Doc) -> Result<bool, Stop> {
        let fails = self.ask(candidate)? == Trial::Fails;
        self.steps += usize::from(fails);
        Ok(fails)
    }

    /// One round of every pass; true if anything shrank.
    fn round(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = self.drop_lines(doc)?;
        changed |= self.drop_tokens(doc)?;
        changed |= self.drop_columns(doc)?;
        changed |= self.renumber(doc)?;
        changed |= self.lower_numbers(doc)?;
        changed |= self.merge_numbers(doc)?;
        changed |= self.shorten_words(doc)?;
        Ok(changed)
    }

    /// Delta debugging over one sequence in `doc` (its lines, one line's
    /// tokens, one token's characters), `len` long: chunks of half of it,
    /// then of a quarter, ..., down to chunks of `smallest` items, each
    /// removed through [`Search::remove`]. With `keep_one`, the last item
    /// stays (a line or a token gone whole is the coarser pass's business).
    /// Returns whether it shrank, and whether every removal it tried was
    /// invalid.
    fn delta(
        &mut self,
        doc: &mut Doc,
        len: impl Fn(&Doc) -> usize,
        region: impl Fn(usize, usize) -> Region,
        keep_one: bool,
        smallest: usize,
    ) -> Result<(bool, bool), Stop> {
        let (mut changed, mut all_invalid) = (false, true);
        let floor = usize::from(keep_one);
        let mut chunk = len(doc).div_ceil(2).max(1);
        loop {
            let mut start = 0;
            while len(doc) > floor && start < len(doc) {
                let size = chunk.min(len(doc) - start);
                if keep_one && size == len(doc) {
                    break;
                }
                let removed = self.remove(doc, region(start, size))?;
                all_invalid &= !self.last_valid;
                if let Some(smaller) = removed {
                    *doc = smaller;
                    changed = true;
                } else {
                    start += size;
                }
            }
            if chunk <= smallest {
                return Ok((changed, all_invalid));
            }
            chunk = chunk.div_ceil(2);
        }
    }

    /// Delta debugging over lines; then, under a first line of one number
    /// (a count of test cases), over the lines after it, so that the
    /// chunks line up with cases that begin on the second line (a case of
    /// two lines after a first line is otherwise never one chunk). Single
    /// lines are the first pass's already, and so is a list of lines of one
    /// shape (the edges under a tree's `n`), where no chunk needs lining up.
    fn drop_lines(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let lines = |doc: &Doc| doc.lines.len();
        let region = |start, len| Region::Lines { start, len };
        let mut changed = self.delta(doc, lines, region, false, 1)?.0;
        let headed = |doc: &Doc| match &doc.lines[..] {
            [first, second, rest @ ..] if first.len() == 1 && first[0].integer().is_some() => {
                rest.iter().any(|line| line.len() != second.len())
            }
            _ => false,
        };
        if headed(doc) {
            let after_first = |doc: &Doc| doc.lines.len().saturating_sub(1);
            let region = |start, len| Region::Lines {
                start: start + 1,
                len,
            };
            changed |= self.delta(doc, after_first, region, true, 2)?.0;
        }
        Ok(changed)
    }

    /// Delta debugging over the tokens of each line, skipping the widths of
    /// fixed shape learned so far unless the round is thorough.
    fn drop_tokens(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        for line in 0..doc.lines.len() {
            let width = doc.lines[line].len();
            if !self.thorough && self.fixed_widths.contains(&width) {
                self.skipped = true;
                continue;
            }
            let tokens = |doc: &Doc| doc.lines[line].len();
            let region = |start, len| Region::Tokens { line, start, len };
            let (shrank, all_invalid) = self.delta(doc, tokens, region, true, 1)?;
            changed |= shrank;
            if width > 1 && all_invalid && !self.fixed_widths.contains(&width) {
                self.fixed_widths.push(width);
            }
        }
        Ok(changed)
    }

    /// Delta debugging over the characters of each token that is not an
    /// integer, down to one character.
    fn shorten_words(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        for line in 0..doc.lines.len() {
            for index in 0..doc.lines[line].len() {
                if doc.lines[line][index].integer().is_some() {
                    continue;
                }
                let chars = |doc: &Doc| doc.lines[line][index].text.chars().count();
                let region = |start, len| Region::Chars {
                    line,
                    index,
                    start,
                    len,
                };
                changed |= self.delta(doc, chars, region, true, 1)?.0;
            }
        }
        Ok(changed)
    }
}

/// A text's length and 64-bit hash: two different candidates of one search
/// (or two different inputs of one stress run) share it with odds near
/// 2^-64 per pair.
pub(crate) fn fingerprint(text: &str) -> (usize, u64) {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    (text.len(), hasher.finish())
}

#[cfg(test)]
mod tests;
