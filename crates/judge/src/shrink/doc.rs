//! The shrinker's view of a text: lines of tokens, each token keeping its
//! identity through every edit, and the regions that edits remove (a run of
//! lines, a run of tokens in a line, a run of characters in a word, a run of
//! columns of a block of rows of equal width).

/// A token and the identity it keeps through every edit (so that a learned
/// count is still known after lines before it are gone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token {
    pub(super) id: u32,
    pub(super) text: String,
}

impl Token {
    pub(super) fn integer(&self) -> Option<i128> {
        self.text.parse().ok()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Doc {
    pub(super) lines: Vec<Vec<Token>>,
}

impl Doc {
    pub(super) fn parse(text: &str) -> Doc {
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

    pub(super) fn render(&self) -> String {
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
    pub(super) fn find(&self, id: u32) -> Option<(usize, usize)> {
        self.lines
            .iter()
            .enumerate()
            .find_map(|(l, line)| line.iter().position(|t| t.id == id).map(|i| (l, i)))
    }

    /// This document with token `id` lowered by `amount`, if it is an integer
    /// that stays non-negative.
    pub(super) fn decremented(&self, id: u32, amount: usize) -> Option<Doc> {
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
/// of one line, characters `start..start+len` of one token, or columns
/// `start..start+len` of every row of a block. Counts are looked for before
/// it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Region {
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
    /// The same columns of `rows` lines from line `first`: characters of
    /// each line's one word (a grid of `#.`) or tokens of each line (a
    /// matrix of numbers).
    Columns {
        first: usize,
        rows: usize,
        words: bool,
        start: usize,
        len: usize,
    },
}

/// What a count counts: lines, tokens, characters or columns. A count
/// learned for one is tried first only for removals of the same unit (the
/// `m` of `n m` counts edge lines, not the tokens inside an edge; the `c` of
/// `r c` counts a grid's columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Lines,
    Tokens,
    Chars,
    Columns,
}

impl Region {
    pub(super) fn unit(self) -> Unit {
        match self {
            Region::Lines { .. } => Unit::Lines,
            Region::Tokens { .. } => Unit::Tokens,
            Region::Chars { .. } => Unit::Chars,
            Region::Columns { .. } => Unit::Columns,
        }
    }

    pub(super) fn len(self) -> usize {
        match self {
            Region::Lines { len, .. }
            | Region::Tokens { len, .. }
            | Region::Chars { len, .. }
            | Region::Columns { len, .. } => len,
        }
    }

    pub(super) fn first_line(self) -> usize {
        match self {
            Region::Lines { start, .. } => start,
            Region::Tokens { line, .. } | Region::Chars { line, .. } => line,
            Region::Columns { first, .. } => first,
        }
    }

    /// Whether the token at (line, index) comes before the region.
    pub(super) fn follows(self, line: usize, index: usize) -> bool {
        let (l, i) = match self {
            Region::Lines { start, .. } => (start, 0),
            Region::Tokens { line, start, .. } => (line, start),
            Region::Chars { line, index, .. } => (line, index),
            Region::Columns { first, .. } => (first, 0),
        };
        line < l || (line == l && index < i)
    }

    pub(super) fn remove_from(self, doc: &Doc) -> Doc {
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
            } => cut_chars(&mut out.lines[line][index].text, start, len),
            Region::Columns {
                first,
                rows,
                words,
                start,
                len,
            } => {
                for line in &mut out.lines[first..first + rows] {
                    // A row that is not as wide as the block's first (never,
                    // while the pass keeps the block's rows equal) loses what
                    // it has of the columns.
                    if words {
                        if let Some(word) = line.first_mut() {
                            cut_chars(&mut word.text, start, len);
                        }
                    } else {
                        let end = (start + len).min(line.len());
                        line.drain(start.min(end)..end);
                    }
                }
            }
        }
        out
    }
}

/// `word` without its characters `start..start+len`.
fn cut_chars(word: &mut String, start: usize, len: usize) {
    *word = word
        .chars()
        .enumerate()
        .filter(|&(c, _)| c < start || c >= start + len)
        .map(|(_, ch)| ch)
        .collect();
}
