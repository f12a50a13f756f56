//! A line-numbered reader for judge-format input, shared by every puzzle's parser.
//!
//! Judge inputs are line-oriented: a solution that reads them line by line (as the
//! seeds' accepted programs do) breaks on a missing or extra number, so the parsers
//! are strict about what each line holds. Every error names the 1-based line and
//! what was expected there, so that `lockstep solve` can answer with one line on
//! stderr instead of a panic.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// Why a judge input could not be read: the line it happened on and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// 1-based line number; 0 when the problem is not tied to a line (empty input).
    pub line: usize,
    pub message: String,
}

impl InputError {
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        InputError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for InputError {}

/// The most characters of a token an error message quotes.
pub const QUOTED_CHARS: usize = 40;

/// A token as an error message quotes it: in quotes, escaped, cut after
/// [`QUOTED_CHARS`] characters with its whole size given, so that a 10 MB
/// token makes a one-line message, not a 10 MB one.
pub fn quoted(token: &str) -> String {
    match token.char_indices().nth(QUOTED_CHARS) {
        None => format!("{token:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &token[..cut], token.len()),
    }
}

/// The most values a line keeps: more than any line of these formats holds.
/// A longer line keeps one more (so that it is reported as too long) and
/// the rest is never split, so a 50 MB line costs no more than its text.
pub const MAX_LINE_TOKENS: usize = 1024;

/// The tokens of a line, at most [`MAX_LINE_TOKENS`] + 1.
fn tokens(text: &str) -> Vec<&str> {
    text.split_whitespace().take(MAX_LINE_TOKENS + 1).collect()
}

/// The words of `text` between whitespace, exactly as
/// [`str::split_whitespace`] gives them, without decoding characters when
/// the text is ASCII: a parser reads thousands of lines in a `lockstep
/// verify` run, and decoding each character cost more than the rest of
/// reading a line. In ASCII, Unicode's whitespace is the space, tab, line
/// feed, vertical tab, form feed and carriage return, and
/// [`str::split_ascii_whitespace`] splits on all of them but the vertical
/// tab; text with a vertical tab or any character past ASCII goes
/// through `split_whitespace` itself.
pub(crate) fn words(text: &str) -> Words<'_> {
    if text.is_ascii() && !text.as_bytes().contains(&0x0B) {
        Words::Ascii(text.split_ascii_whitespace())
    } else {
        Words::Unicode(text.split_whitespace())
    }
}

/// The iterator of [`words`].
#[derive(Debug, Clone)]
pub(crate) enum Words<'a> {
    Ascii(std::str::SplitAsciiWhitespace<'a>),
    Unicode(std::str::SplitWhitespace<'a>),
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        match self {
            Words::Ascii(split) => split.next(),
            Words::Unicode(split) => split.next(),
        }
    }
}

/// The first `N` items of `items` (`""` where there are fewer), and how
/// many items there were in all: a split read without a list.
pub(crate) fn first_few<'a, const N: usize>(
    items: impl Iterator<Item = &'a str>,
) -> ([&'a str; N], usize) {
    let mut out = [""; N];
    let mut count = 0;
    for item in items {
        if let Some(slot) = out.get_mut(count) {
            *slot = item;
        }
        count += 1;
    }
    (out, count)
}

/// One line of input split into whitespace-separated tokens (at most
/// [`MAX_LINE_TOKENS`] + 1 of them).
#[derive(Debug, Clone)]
pub struct Line<'a> {
    pub number: usize,
    pub tokens: Vec<&'a str>,
}

impl<'a> Line<'a> {
    /// An error located on this line.
    pub fn error(&self, message: impl Into<String>) -> InputError {
        InputError::new(self.number, message)
    }

    /// Requires exactly `count` tokens; `what` names them for the error ("6 colours").
    pub fn expect_len(&self, count: usize, what: &str) -> Result<(), InputError> {
        if self.tokens.len() == count {
            Ok(())
        } else if self.tokens.len() > MAX_LINE_TOKENS {
            Err(self.error(format!(
                "expected {what}, found more than {MAX_LINE_TOKENS} values"
            )))
        } else {
            Err(self.error(format!(
                "expected {what}, found {} value{}",
                self.tokens.len(),
                if self.tokens.len() == 1 { "" } else { "s" }
            )))
        }
    }

    /// Token `index` as a number within `range`; `what` names it for the error.
    pub fn int<T: Int>(
        &self,
        index: usize,
        what: &str,
        range: RangeInclusive<T>,
    ) -> Result<T, InputError> {
        let token = self
            .tokens
            .get(index)
            .ok_or_else(|| self.error(format!("expected {what}, found end of line")))?;
        parse_int(token, self.number, what, range)
    }
}

/// What a whole number read from the input is: parsed, compared with its
/// range, printed in an error.
pub trait Int: FromStr + PartialOrd + fmt::Display + Copy {}

impl<T: FromStr + PartialOrd + fmt::Display + Copy> Int for T {}

/// Parses one token as a whole number within `range`.
pub fn parse_int<T: Int>(
    token: &str,
    line: usize,
    what: &str,
    range: RangeInclusive<T>,
) -> Result<T, InputError> {
    let value: T = token.parse().map_err(|_| {
        // A whole number that does not fit the type (20 digits, or a
        // minus sign where no value is negative) is a number out of range,
        // not a token that is no number.
        let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
        let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        let message = match (whole, token.starts_with('-')) {
            (true, false) => format!(
                "{what} is too large (at most {}), found {token}",
                range.end()
            ),
            (true, true) => format!(
                "{what} is too small (at least {}), found {token}",
                range.start()
            ),
            (false, _) => format!(
                "expected a whole number for {what}, found {}",
                quoted(token)
            ),
        };
        InputError::new(line, message)
    })?;
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(InputError::new(
            line,
            format!(
                "{what} must be in {}..={}, found {value}",
                range.start(),
                range.end()
            ),
        ))
    }
}

/// The one rule for line ends, for every puzzle's format: a line ends with
/// `\n` or `\r\n` (the last line may have neither); a carriage return
/// anywhere else (an old Mac's `\r`-only line ends, say) is an input error
/// naming its line, rather than whitespace that runs two lines into one.
pub fn check_line_ends(text: &str) -> Result<(), InputError> {
    for (index, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.contains('\r') {
            return Err(InputError::new(
                index + 1,
                "a carriage return (\\r) inside the line: lines end with \\n or \\r\\n",
            ));
        }
    }
    Ok(())
}

/// Hands out the lines of an input in order, with their numbers.
pub struct Lines<'a> {
    inner: std::iter::Enumerate<std::str::Lines<'a>>,
    last: usize,
}

impl<'a> Lines<'a> {
    /// The lines of a judge input whose line ends are checked first
    /// ([`check_line_ends`]): how every model's parser starts.
    pub fn checked(text: &'a str) -> Result<Self, InputError> {
        check_line_ends(text)?;
        Ok(Lines::new(text))
    }

    pub fn new(text: &'a str) -> Self {
        Lines {
            inner: text.lines().enumerate(),
            last: 0,
        }
    }

    /// The next line, or an error saying that `what` was expected there.
    pub fn next_line(&mut self, what: &str) -> Result<Line<'a>, InputError> {
        match self.inner.next() {
            Some((index, text)) => {
                self.last = index + 1;
                Ok(Line {
                    number: index + 1,
                    tokens: tokens(text),
                })
            }
            None => Err(self.end_error(what)),
        }
    }

    /// The next line, which must hold exactly `count` values (`what` names them
    /// in either error).
    pub fn next_exact(&mut self, count: usize, what: &str) -> Result<Line<'a>, InputError> {
        let line = self.next_line(what)?;
        line.expect_len(count, what)?;
        Ok(line)
    }

    /// An error for input that ended where `what` was expected, on the line after
    /// the last one read.
    pub fn end_error(&self, what: &str) -> InputError {
        InputError::new(
            self.last + 1,
            format!("expected {what}, found end of input"),
        )
    }

    /// The next line that is not blank, or `None` at the end of input. For inputs
    /// whose cases run until end of file.
    pub fn next_nonblank(&mut self) -> Option<Line<'a>> {
        for (index, text) in self.inner.by_ref() {
            self.last = index + 1;
            let tokens = tokens(text);
            if !tokens.is_empty() {
                return Some(Line {
                    number: index + 1,
                    tokens,
                });
            }
        }
        None
    }

    /// Accepts only blank lines after the input proper.
    pub fn finish(mut self) -> Result<(), InputError> {
        match self.next_nonblank() {
            None => Ok(()),
            Some(line) => Err(line.error("unexpected text after the end of the input")),
        }
    }
}

/// Asserts that each input of `cases` is refused with exactly its message:
/// the parse-error tables of every model's tests.
#[cfg(test)]
pub(crate) fn assert_refused<M: crate::Model>(cases: &[(&str, &str)]) {
    for (input, message) in cases {
        match M::parse(input) {
            Ok(_) => panic!("input {input:?} parsed; expected {message:?}"),
            Err(e) => assert_eq!(e.to_string(), *message, "input {input:?}"),
        }
    }
}

#[cfg(test)]
mod tests;
