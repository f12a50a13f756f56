//! How a program's output is compared with the expected one: testlib's
//! standard checkers as comparisons lockstep makes itself, so that most
//! problems need no checker of their own. Each names the first difference
//! in one bounded line, as reports quote it.
//!
//! - `tokens`: the same whitespace-separated tokens (testlib's `wcmp`); where
//!   the lines break does not count. The default for any problem.
//! - `lines`: the same lines, trailing spaces and final newlines aside (the
//!   puzzles' judges; the default of puzzle stress).
//! - `exact`: the same bytes.
//! - `real:EPS`: tokens, numbers within an absolute or relative error of EPS
//!   (testlib's `doubleCompare`, below), a number being what testlib's
//!   `readDouble` reads as one; other tokens the same.
//! - `yesno`: tokens, `YES` and `NO` in any case.

use lockstep_text::{clip, QUOTE_CHARS};

/// A comparison of outputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Comparison {
    Tokens,
    Lines,
    Exact,
    /// Numbers within this absolute or relative error.
    Real(f64),
    YesNo,
}

impl std::str::FromStr for Comparison {
    type Err = crate::JudgeError;

    fn from_str(text: &str) -> Result<Comparison, crate::JudgeError> {
        match text {
            "tokens" => Ok(Comparison::Tokens),
            "lines" => Ok(Comparison::Lines),
            "exact" => Ok(Comparison::Exact),
            "yesno" => Ok(Comparison::YesNo),
            "real" => Err(crate::JudgeError::Setting(
                "real needs its error: real:EPS, e.g. real:1e-6".to_string(),
            )),
            _ => match text.strip_prefix("real:").map(str::parse::<f64>) {
                Some(Ok(eps)) if eps.is_finite() && eps >= 0.0 => Ok(Comparison::Real(eps)),
                Some(_) => Err(crate::JudgeError::Setting(format!(
                    "{text:?}: the error must be a number at least 0, e.g. real:1e-6"
                ))),
                None => Err(crate::JudgeError::Setting(format!(
                    "{text:?}: expected tokens, lines, exact, real:EPS or yesno"
                ))),
            },
        }
    }
}

impl std::fmt::Display for Comparison {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Comparison::Tokens => f.write_str("tokens"),
            Comparison::Lines => f.write_str("lines"),
            Comparison::Exact => f.write_str("exact"),
            Comparison::Real(eps) => write!(f, "real:{eps:e}"),
            Comparison::YesNo => f.write_str("yesno"),
        }
    }
}

/// The tokens of a text, each with its line (from 1).
fn tokens(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .flat_map(|(i, line)| line.split_whitespace().map(move |t| (i + 1, t)))
        .collect()
}

/// testlib's `doubleCompare`, line for line: `got` matches `expected` when
/// their difference is at most `eps` + 1e-15, or when `got` lies within
/// `expected` times 1 -+ `eps` with 1e-15 of slack at both ends (the
/// bounds themselves are made from `eps` alone); a NaN matches only a NaN,
/// and an infinity (beyond 1e300 either way, testlib's `isInfinite`) only
/// one of the same sign.
pub fn reals_match(expected: f64, got: f64, eps: f64) -> bool {
    // True for a NaN too: every use below has ruled a NaN out, or checks
    // the sign first, as testlib does.
    let infinite = |x: f64| !(-1e300..=1e300).contains(&x);
    if expected.is_nan() {
        got.is_nan()
    } else if infinite(expected) {
        if expected > 0.0 {
            got > 0.0 && infinite(got)
        } else {
            got < 0.0 && infinite(got)
        }
    } else if got.is_nan() || infinite(got) {
        false
    } else if (got - expected).abs() <= eps + 1e-15 {
        true
    } else {
        let (a, b) = (expected * (1.0 - eps), expected * (1.0 + eps));
        let (minv, maxv) = (a.min(b), a.max(b));
        got + 1e-15 >= minv && got <= maxv + 1e-15
    }
}

/// A token read as testlib's `readDouble` reads it (`stringToDouble`), or
/// `None` where testlib would stop with "Expected double": only digits,
/// `.`, `e`/`E`, `+` and `-`, at least one digit, at most one point, one
/// exponent, two of each sign, and the whole token one number (so no
/// `inf`, `nan`, `infinity`, hex or `1e`, which Rust's own parse and
/// strtod take or half-take). A number too large for a double is an
/// infinity, as strtod makes it; testlib refuses only a NaN.
pub fn parse_real(token: &str) -> Option<f64> {
    let mut counts = [0usize; 5]; // digits, points, exponents, minuses, pluses
    for c in token.chars() {
        let slot = match c {
            '0'..='9' => 0,
            '.' => 1,
            'e' | 'E' => 2,
            '-' => 3,
            '+' => 4,
            _ => return None,
        };
        counts[slot] += 1;
    }
    let [digits, points, exponents, minuses, pluses] = counts;
    if digits == 0 || points > 1 || exponents > 1 || minuses > 2 || pluses > 2 {
        return None;
    }
    // On what is left, Rust's grammar is strtod's: an optional sign, digits
    // with at most one point, an optional exponent with its own sign.
    token.parse::<f64>().ok().filter(|x| !x.is_nan())
}

impl Comparison {
    /// Whether `got` passes for `expected`.
    pub fn same(&self, expected: &str, got: &str) -> bool {
        self.difference(expected, got).is_none()
    }

    /// Where `got` first differs from `expected`, in one bounded line; `None`
    /// when it passes.
    pub fn difference(&self, expected: &str, got: &str) -> Option<String> {
        match self {
            Comparison::Lines => (!lockstep_text::same_output(expected, got))
                .then(|| lockstep_text::first_difference("expected", expected, "got", got)),
            Comparison::Exact => exact_difference(expected, got),
            Comparison::Tokens | Comparison::Real(_) | Comparison::YesNo => {
                self.token_difference(expected, got)
            }
        }
    }

    /// Why two tokens differ under this comparison, or `None` if they match.
    fn token_mismatch(&self, expected: &str, got: &str) -> Option<String> {
        match self {
            Comparison::Real(eps) => match (parse_real(expected), parse_real(got)) {
                (Some(e), Some(g)) if reals_match(e, g, *eps) => None,
                (Some(e), Some(g)) => {
                    let error = (g - e).abs();
                    Some(format!(
                        ": absolute error {error:.3e}, relative {:.3e}, over {eps:e}",
                        error / e.abs()
                    ))
                }
                (Some(_), None) => Some(": expected a number".to_string()),
                _ => (expected != got).then(String::new),
            },
            Comparison::YesNo => {
                let yes_no =
                    |t: &str| t.eq_ignore_ascii_case("yes") || t.eq_ignore_ascii_case("no");
                let same = expected == got
                    || (yes_no(expected) && yes_no(got) && expected.eq_ignore_ascii_case(got));
                (!same).then(String::new)
            }
            _ => (expected != got).then(String::new),
        }
    }

    fn token_difference(&self, expected: &str, got: &str) -> Option<String> {
        let (want, have) = (tokens(expected), tokens(got));
        let quote = |t: Option<&(usize, &str)>| match t {
            Some((line, token)) => format!("{:?} (line {line})", clip(token, QUOTE_CHARS)),
            None => "the end of the output".to_string(),
        };
        let counts = format!("{} tokens expected, {} got", want.len(), have.len());
        for i in 0..want.len().max(have.len()) {
            let why = match (want.get(i), have.get(i)) {
                (Some(w), Some(h)) => self.token_mismatch(w.1, h.1),
                _ => Some(String::new()),
            };
            if let Some(why) = why {
                return Some(format!(
                    "token {}: expected {}, got {}{why} ({counts})",
                    i + 1,
                    quote(want.get(i)),
                    quote(have.get(i))
                ));
            }
        }
        None
    }
}

/// Where two outputs first differ byte for byte: the line, both versions of
/// it quoted with its line break (so that spaces, a `\r` and a missing final
/// newline show).
fn exact_difference(expected: &str, got: &str) -> Option<String> {
    if expected == got {
        return None;
    }
    let (want, have): (Vec<&str>, Vec<&str>) = (
        expected.split_inclusive('\n').collect(),
        got.split_inclusive('\n').collect(),
    );
    let first = (0..want.len().max(have.len()))
        .find(|&i| want.get(i) != have.get(i))
        .unwrap_or(0);
    let quote = |v: &[&str]| match v.get(first) {
        Some(line) => format!("{:?}", clip(line, QUOTE_CHARS)),
        None => "the end of the output".to_string(),
    };
    Some(format!(
        "line {} (exact): expected {}, got {}",
        first + 1,
        quote(&want),
        quote(&have)
    ))
}

#[cfg(test)]
mod tests;
