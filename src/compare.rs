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
//!   (testlib's `doubleCompare`, below); other tokens the same.
//! - `yesno`: tokens, `YES` and `NO` in any case.

use crate::text::{clip, QUOTE_CHARS};

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
    type Err = String;

    fn from_str(text: &str) -> Result<Comparison, String> {
        match text {
            "tokens" => Ok(Comparison::Tokens),
            "lines" => Ok(Comparison::Lines),
            "exact" => Ok(Comparison::Exact),
            "yesno" => Ok(Comparison::YesNo),
            "real" => Err("real needs its error: real:EPS, e.g. real:1e-6".to_string()),
            _ => match text.strip_prefix("real:").map(str::parse::<f64>) {
                Some(Ok(eps)) if eps.is_finite() && eps >= 0.0 => Ok(Comparison::Real(eps)),
                Some(_) => Err(format!(
                    "{text:?}: the error must be a number at least 0, e.g. real:1e-6"
                )),
                None => Err(format!(
                    "{text:?}: expected tokens, lines, exact, real:EPS or yesno"
                )),
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

/// testlib's `doubleCompare`: `got` matches `expected` when their
/// difference is at most `eps` (plus 1e-15 for rounding), or `got` lies
/// within `expected` times 1 -+ that; a NaN or an infinity (beyond 1e300)
/// matches only its like.
pub fn reals_match(expected: f64, got: f64, eps: f64) -> bool {
    let eps = eps + 1e-15;
    let infinite = |x: f64| x.is_infinite() || x.abs() > 1e300;
    if expected.is_nan() {
        got.is_nan()
    } else if infinite(expected) {
        infinite(got) && (expected > 0.0) == (got > 0.0)
    } else if got.is_nan() || infinite(got) {
        false
    } else if (got - expected).abs() <= eps {
        true
    } else {
        let (a, b) = (expected * (1.0 - eps), expected * (1.0 + eps));
        a.min(b) <= got && got <= a.max(b)
    }
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
            Comparison::Lines => (!crate::text::same_output(expected, got))
                .then(|| crate::text::first_difference("expected", expected, "got", got)),
            Comparison::Exact => exact_difference(expected, got),
            Comparison::Tokens | Comparison::Real(_) | Comparison::YesNo => {
                self.token_difference(expected, got)
            }
        }
    }

    /// Why two tokens differ under this comparison, or `None` if they match.
    fn token_mismatch(&self, expected: &str, got: &str) -> Option<String> {
        match self {
            Comparison::Real(eps) => match (expected.parse::<f64>(), got.parse::<f64>()) {
                (Ok(e), Ok(g)) if reals_match(e, g, *eps) => None,
                (Ok(e), Ok(g)) => {
                    let error = (g - e).abs();
                    Some(format!(
                        ": absolute error {error:.3e}, relative {:.3e}, over {eps:e}",
                        error / e.abs()
                    ))
                }
                (Ok(_), Err(_)) => Some(": expected a number".to_string()),
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
mod tests {
    use super::*;

    fn parse(text: &str) -> Comparison {
        text.parse().unwrap()
    }

    #[test]
    fn tokens_ignore_how_lines_break_and_name_the_first_other_token() {
        let tokens = parse("tokens");
        assert!(tokens.same("1 2\n3\n", "1\n2 3"));
        assert!(!tokens.same("1 2 3", "1 2"));
        assert_eq!(
            tokens.difference("1 2\n3\n", "1 2\n4\n").unwrap(),
            "token 3: expected \"3\" (line 2), got \"4\" (line 2) (3 tokens expected, 3 got)"
        );
        assert_eq!(
            tokens.difference("1", "1 9").unwrap(),
            "token 2: expected the end of the output, got \"9\" (line 1) (1 tokens expected, 2 got)"
        );
    }

    #[test]
    fn lines_keep_todays_rule_and_exact_counts_every_byte() {
        let (lines, exact) = (parse("lines"), parse("exact"));
        assert!(lines.same("1 2\n", "1 2  \n\n"));
        assert!(!lines.same("1 2\n", "1\n2\n"));
        assert!(exact.same("1 2\n", "1 2\n"));
        assert_eq!(
            exact.difference("1 2\n", "1 2 \n").unwrap(),
            "line 1 (exact): expected \"1 2\\n\", got \"1 2 \\n\""
        );
        assert_eq!(
            exact.difference("1\n2\n", "1\n2").unwrap(),
            "line 2 (exact): expected \"2\\n\", got \"2\""
        );
        assert_eq!(
            exact.difference("1\n", "1\n2\n").unwrap(),
            "line 2 (exact): expected the end of the output, got \"2\\n\""
        );
    }

    /// testlib's rule, at both edges: within EPS absolutely or relatively.
    #[test]
    fn reals_within_the_error_pass_and_beyond_it_fail() {
        let real = parse("real:1e-6");
        assert!(real.same("0.5\n", "0.5000009"));
        assert!(!real.same("0.5\n", "0.500002"));
        // Relative: 1e6 * 1e-6 = 1 allowed.
        assert!(real.same("1000000", "1000000.9"));
        assert!(!real.same("1000000", "1000001.5"));
        assert!(real.same("YES 2.0", "YES 2"));
        assert!(!real.same("YES 2.0", "yes 2"));
        let why = real.difference("0.5", "0.6").unwrap();
        assert!(why.contains("absolute error 1.000e-1"), "{why}");
        assert!(real
            .difference("1.5", "x")
            .unwrap()
            .contains("expected a number"));
        assert!(reals_match(f64::NAN, f64::NAN, 0.0));
        assert!(!reals_match(1.0, f64::INFINITY, 1.0));
        assert!(reals_match(f64::INFINITY, 2e300, 0.0));
    }

    #[test]
    fn yes_and_no_match_in_any_case_and_nothing_else_does() {
        let yesno = parse("yesno");
        assert!(yesno.same("YES\nNO\n", "yes No"));
        assert!(!yesno.same("YES", "NO"));
        assert!(!yesno.same("Possible", "POSSIBLE"));
        assert!(yesno.same("YES 3", "Yes 3"));
    }

    #[test]
    fn comparisons_read_back_what_they_print_and_refuse_nonsense() {
        for text in [
            "tokens",
            "lines",
            "exact",
            "yesno",
            "real:1e-6",
            "real:0.25",
        ] {
            let c = parse(text);
            assert_eq!(parse(&c.to_string()), c, "{text}");
        }
        for bad in ["real", "real:", "real:-1", "real:inf", "words"] {
            assert!(bad.parse::<Comparison>().is_err(), "{bad}");
        }
    }
}
