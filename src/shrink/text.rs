//! Shrinking a text input with no knowledge of its format: what `lockstep
//! stress --gen` uses on any problem's failing input.
//!
//! The input is read as lines of whitespace-separated tokens. Passes of delta
//! debugging drop chunks of lines, then chunks of tokens within a line (halves
//! first, down to single ones), then halve each integer toward zero, then drop
//! chunks of characters from each other token; they repeat until a whole round changes nothing
//! (a local minimum for every edit of those kinds) or the budget runs out.
//!
//! A candidate is judged by the caller's test: it still fails the same way,
//! it passes, or it is *invalid* (the validator or the brute force rejected
//! it). Invalid is what teaches the shrinker about counts: most formats put a
//! count before its data (`N`, then N numbers), so dropping data alone makes
//! an invalid input. When a removal is invalid, the shrinker tries it again
//! with an earlier integer decremented (by the number of lines or tokens
//! removed, or by one), the likeliest counts first: a number equal to how many
//! lines follow it, to the next line's length (in tokens, or in characters
//! when it is one word), or to how many tokens follow it on its line. A count that worked is remembered and tried first from then
//! on, and is left out of the number-halving pass, where alone it could only
//! make the input invalid.
//!
//! What it cannot do: edit several places at once beyond one count and its
//! data (a grid's column goes only with a character from every row, which no
//! single edit does), or keep whitespace the failure depends on.
//!
//! Every candidate is rendered as text and asked at most once (a cache of
//! fingerprints);
//! the output keeps one space between tokens and a newline after each line.

use super::{Budget, Stop};
use std::collections::HashMap;
use std::time::Instant;

/// What the caller's test says of a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
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
pub struct Shrunk {
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
    /// Why it stopped; `None` when the text was left as it came because the
    /// failure needs its exact spacing (the shrinker rewrites whitespace).
    pub stop: Option<Stop>,
}

/// How many unproven counts one invalid removal is retried with.
const COUNT_GUESSES: usize = 4;

/// Shrinks `text` while `test` says [`Verdict::Fails`], within `budget`.
/// `text` itself is taken to fail; `on_attempt` sees the size of the current
/// text and the attempts so far after every candidate (for a progress line).
pub fn shrink(
    text: &str,
    test: impl FnMut(&str) -> Verdict,
    budget: Budget,
    on_attempt: &mut dyn FnMut(Size, usize),
) -> Shrunk {
    let mut search = Search {
        test,
        cache: HashMap::new(),
        attempts: 0,
        invalid: 0,
        steps: 0,
        count_edits: 0,
        budget,
        deadline: budget.time.map(|t| Instant::now() + t),
        learned: Vec::new(),
        current: Size::of(text),
        on_attempt,
    };
    let mut doc = Doc::parse(text);
    let before = Size::of(text);
    search.cache.insert(fingerprint(text), Verdict::Fails);
    let finish = |search: Search<_>, doc: &Doc, stop| Shrunk {
        text: doc.render(),
        before,
        after: Size::of(&doc.render()),
        attempts: search.attempts,
        steps: search.steps,
        invalid: search.invalid,
        count_edits: search.count_edits,
        stop,
    };
    let normal = doc.render();
    if normal != text {
        match search.ask(&doc) {
            Ok(Verdict::Fails) => {}
            Ok(_) => {
                return Shrunk {
                    text: text.to_string(),
                    after: before,
                    ..finish(search, &doc, None)
                }
            }
            Err(stop) => {
                return Shrunk {
                    text: text.to_string(),
                    after: before,
                    ..finish(search, &doc, Some(stop))
                }
            }
        }
    }
    let stop = loop {
        match search.round(&mut doc) {
            Ok(true) => continue,
            Ok(false) => break Stop::LocalMinimum,
            Err(stop) => break stop,
        }
    };
    finish(search, &doc, Some(stop))
}

/// A token and the identity it keeps through every edit (so that a learned
/// count is still known after lines before it are gone).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    id: u32,
    text: String,
}

impl Token {
    fn integer(&self) -> Option<i128> {
        self.text.parse().ok()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Doc {
    lines: Vec<Vec<Token>>,
}

impl Doc {
    fn parse(text: &str) -> Doc {
        let mut id = 0;
        let lines = text
            .lines()
            .map(|line| {
                line.split_whitespace()
                    .map(|t| {
                        id += 1;
                        Token {
                            id,
                            text: t.to_string(),
                        }
                    })
                    .collect()
            })
            .collect();
        Doc { lines }
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            for (i, token) in line.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&token.text);
            }
            out.push('\n');
        }
        out
    }

    /// Where token `id` is: (line, index).
    fn find(&self, id: u32) -> Option<(usize, usize)> {
        self.lines
            .iter()
            .enumerate()
            .find_map(|(l, line)| line.iter().position(|t| t.id == id).map(|i| (l, i)))
    }

    /// This document with token `id` lowered by `amount`, if it is an integer
    /// that stays non-negative.
    fn decremented(&self, id: u32, amount: usize) -> Option<Doc> {
        let (l, i) = self.find(id)?;
        let value = self.lines[l][i].integer()?;
        let lowered = value.checked_sub(amount as i128)?;
        if lowered < 0 {
            return None;
        }
        let mut doc = self.clone();
        doc.lines[l][i].text = lowered.to_string();
        Some(doc)
    }
}

/// What a removal took out: lines `start..start+len`, tokens `start..start+len`
/// of one line, or characters `start..start+len` of one token. Counts are
/// looked for before it.
#[derive(Debug, Clone, Copy)]
enum Region {
    Lines {
        start: usize,
        len: usize,
    },
    Tokens {
        line: usize,
        start: usize,
        len: usize,
    },
    Chars {
        line: usize,
        index: usize,
        start: usize,
        len: usize,
    },
}

impl Region {
    fn len(self) -> usize {
        match self {
            Region::Lines { len, .. } | Region::Tokens { len, .. } | Region::Chars { len, .. } => {
                len
            }
        }
    }

    fn first_line(self) -> usize {
        match self {
            Region::Lines { start, .. } => start,
            Region::Tokens { line, .. } | Region::Chars { line, .. } => line,
        }
    }

    /// Whether the token at (line, index) comes before the region.
    fn follows(self, line: usize, index: usize) -> bool {
        let (l, i) = match self {
            Region::Lines { start, .. } => (start, 0),
            Region::Tokens { line, start, .. } => (line, start),
            Region::Chars { line, index, .. } => (line, index),
        };
        line < l || (line == l && index < i)
    }

    fn remove_from(self, doc: &Doc) -> Doc {
        let mut out = doc.clone();
        match self {
            Region::Lines { start, len } => {
                out.lines.drain(start..start + len);
            }
            Region::Tokens { line, start, len } => {
                out.lines[line].drain(start..start + len);
            }
            Region::Chars {
                line,
                index,
                start,
                len,
            } => {
                let token = &mut out.lines[line][index].text;
                *token = token
                    .chars()
                    .enumerate()
                    .filter(|&(c, _)| c < start || c >= start + len)
                    .map(|(_, ch)| ch)
                    .collect();
            }
        }
        out
    }
}

struct Search<'a, F> {
    test: F,
    /// Verdicts by [`fingerprint`]: thousands of candidates of a large input
    /// would hold gigabytes as text.
    cache: HashMap<(usize, u64), Verdict>,
    attempts: usize,
    invalid: usize,
    steps: usize,
    count_edits: usize,
    budget: Budget,
    deadline: Option<Instant>,
    /// Tokens that proved to be counts, the latest first.
    learned: Vec<u32>,
    /// The size of the text kept so far.
    current: Size,
    on_attempt: &'a mut dyn FnMut(Size, usize),
}

impl<F: FnMut(&str) -> Verdict> Search<'_, F> {
    /// The test's verdict on `doc`, from the cache when it was asked before.
    fn ask(&mut self, doc: &Doc) -> Result<Verdict, Stop> {
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
        self.attempts += 1;
        let verdict = (self.test)(&text);
        if verdict == Verdict::Invalid {
            self.invalid += 1;
        }
        if verdict == Verdict::Fails {
            // The search is greedy: a failing candidate is kept at once.
            self.current = Size::of(&text);
        }
        self.cache.insert(key, verdict);
        (self.on_attempt)(self.current, self.attempts);
        Ok(verdict)
    }

    /// Whether `candidate` fails, counting a kept step.
    fn keeps(&mut self, candidate: &Doc) -> Result<bool, Stop> {
        let fails = self.ask(candidate)? == Verdict::Fails;
        self.steps += usize::from(fails);
        Ok(fails)
    }

    /// One round of every pass; true if anything shrank.
    fn round(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = self.drop_lines(doc)?;
        changed |= self.drop_tokens(doc)?;
        changed |= self.lower_numbers(doc)?;
        changed |= self.shorten_words(doc)?;
        Ok(changed)
    }

    /// Delta debugging over lines: chunks of half the lines, then of a
    /// quarter, ..., then single lines.
    fn drop_lines(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        let mut chunk = doc.lines.len().div_ceil(2).max(1);
        loop {
            let mut start = 0;
            while start < doc.lines.len() {
                let len = chunk.min(doc.lines.len() - start);
                if let Some(smaller) = self.remove(doc, Region::Lines { start, len })? {
                    *doc = smaller;
                    changed = true;
                } else {
                    start += len;
                }
            }
            if chunk == 1 {
                return Ok(changed);
            }
            chunk = chunk.div_ceil(2);
        }
    }

    /// Delta debugging over the tokens of each line (a line of one token is
    /// the line pass's business).
    fn drop_tokens(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        let mut line = 0;
        while line < doc.lines.len() {
            let mut chunk = doc.lines[line].len().div_ceil(2).max(1);
            loop {
                let mut start = 0;
                while doc.lines[line].len() > 1 && start < doc.lines[line].len() {
                    let len = chunk.min(doc.lines[line].len() - start);
                    if len == doc.lines[line].len() {
                        break;
                    }
                    if let Some(smaller) = self.remove(doc, Region::Tokens { line, start, len })? {
                        *doc = smaller;
                        changed = true;
                    } else {
                        start += len;
                    }
                }
                if chunk == 1 {
                    break;
                }
                chunk = chunk.div_ceil(2);
            }
            line += 1;
        }
        Ok(changed)
    }

    /// Removes `region` from `doc` if what is left still fails: alone, or
    /// with a count decremented.
    fn remove(&mut self, doc: &Doc, region: Region) -> Result<Option<Doc>, Stop> {
        let plain = region.remove_from(doc);
        let amounts = amounts(region.len());
        // A count that worked before, if one comes before the region.
        for id in self.learned.clone() {
            if !doc.find(id).is_some_and(|(l, i)| region.follows(l, i)) {
                continue;
            }
            for &amount in &amounts {
                if let Some(paired) = plain.decremented(id, amount) {
                    if self.keeps(&paired)? {
                        self.learn(id);
                        self.count_edits += 1;
                        return Ok(Some(paired));
                    }
                }
            }
        }
        match self.ask(&plain)? {
            Verdict::Fails => {
                self.steps += 1;
                return Ok(Some(plain));
            }
            Verdict::Passes => return Ok(None),
            Verdict::Invalid => {}
        }
        for id in guesses(doc, region, &self.learned) {
            for &amount in &amounts {
                if let Some(paired) = plain.decremented(id, amount) {
                    if self.keeps(&paired)? {
                        self.learn(id);
                        self.count_edits += 1;
                        return Ok(Some(paired));
                    }
                }
            }
        }
        Ok(None)
    }

    fn learn(&mut self, id: u32) {
        self.learned.retain(|&l| l != id);
        self.learned.insert(0, id);
    }

    /// Each integer toward zero: to 0, to half, one step; again while that
    /// keeps failing. Learned counts are left alone.
    fn lower_numbers(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        for l in 0..doc.lines.len() {
            for i in 0..doc.lines[l].len() {
                if self.learned.contains(&doc.lines[l][i].id) {
                    continue;
                }
                'lower: while let Some(value) = doc.lines[l][i].integer() {
                    for lower in [0, value / 2, value - value.signum()] {
                        if lower == value || lower.to_string() == doc.lines[l][i].text {
                            continue;
                        }
                        let mut candidate = doc.clone();
                        candidate.lines[l][i].text = lower.to_string();
                        if self.keeps(&candidate)? {
                            *doc = candidate;
                            changed = true;
                            continue 'lower;
                        }
                    }
                    break;
                }
            }
        }
        Ok(changed)
    }

    /// Delta debugging over the characters of each token that is not an
    /// integer, down to one character (a token gone is the token pass's).
    fn shorten_words(&mut self, doc: &mut Doc) -> Result<bool, Stop> {
        let mut changed = false;
        for line in 0..doc.lines.len() {
            for index in 0..doc.lines[line].len() {
                let chars = |doc: &Doc| doc.lines[line][index].text.chars().count();
                if doc.lines[line][index].integer().is_some() {
                    continue;
                }
                let mut chunk = chars(doc).div_ceil(2).max(1);
                loop {
                    let mut start = 0;
                    while chars(doc) > 1 && start < chars(doc) {
                        let len = chunk.min(chars(doc) - start);
                        if len == chars(doc) {
                            break;
                        }
                        let region = Region::Chars {
                            line,
                            index,
                            start,
                            len,
                        };
                        if let Some(smaller) = self.remove(doc, region)? {
                            *doc = smaller;
                            changed = true;
                        } else {
                            start += len;
                        }
                    }
                    if chunk == 1 {
                        break;
                    }
                    chunk = chunk.div_ceil(2);
                }
            }
        }
        Ok(changed)
    }
}

/// A candidate's length and 64-bit hash: two different candidates of one
/// search share it with odds near 2^-64 per pair.
fn fingerprint(text: &str) -> (usize, u64) {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    (text.len(), hasher.finish())
}

/// What a count may have to drop by when `removed` lines or tokens go: by
/// that many (N then N items), by one (T test cases of several lines), or by
/// half (M pairs on one line).
fn amounts(removed: usize) -> Vec<usize> {
    let mut out = vec![removed];
    for extra in [1, removed / 2] {
        if extra > 0 && !out.contains(&extra) {
            out.push(extra);
        }
    }
    out
}

/// The integers before `region` most likely to count what it held, not yet
/// learned: the likeliest first, at most [`COUNT_GUESSES`].
fn guesses(doc: &Doc, region: Region, learned: &[u32]) -> Vec<u32> {
    let mut scored = Vec::new();
    let mut order = 0usize;
    for (l, line) in doc.lines.iter().enumerate() {
        for (i, token) in line.iter().enumerate() {
            if !region.follows(l, i) || learned.contains(&token.id) {
                continue;
            }
            let Some(value) = token.integer() else {
                continue;
            };
            if value < 1 {
                continue;
            }
            order += 1;
            let counts = |n: usize| value == n as i128;
            let lines_after = doc.lines.len() - l - 1;
            let next_line = doc.lines.get(l + 1).map_or(0, Vec::len);
            let rest_of_line = line.len() - i - 1;
            // A string's length: the next line holds one word.
            let next_word = match doc.lines.get(l + 1).map(Vec::as_slice) {
                Some([word]) => word.text.chars().count(),
                _ => 0,
            };
            // A count sits on a line of its own before its data more often
            // than beside it, and the first line holds the most counts.
            let counts_something = counts(lines_after)
                || counts(next_line)
                || counts(rest_of_line)
                || counts(next_word);
            let score = match (counts_something, l < region.first_line()) {
                (true, true) => 0,
                (true, false) => 1,
                _ if l == 0 => 2,
                _ => 3,
            };
            // Nearer counts before farther ones of the same score.
            scored.push((score, usize::MAX - order, token.id));
        }
    }
    scored.sort_unstable();
    scored
        .into_iter()
        .take(COUNT_GUESSES)
        .map(|(_, _, id)| id)
        .collect()
}

#[cfg(test)]
mod tests;
