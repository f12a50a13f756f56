//! The text shrinker against in-process tests: formats with counts, several
//! test cases, words, and the budget, with no program started.

use super::counts::{amounts, guesses};
use super::*;
use std::collections::HashSet;

mod minimum;

/// Far more than any test needs, in candidates and in time (a deadline
/// computed wrongly would cut every test short).
const NO_LIMIT: Budget = Budget {
    attempts: 100_000,
    time: Some(std::time::Duration::from_secs(3600)),
};

fn integers(line: &str) -> Option<Vec<i64>> {
    line.split_whitespace().map(|t| t.parse().ok()).collect()
}

/// "N" then a line of N integers, each in -100..=100; `None` when invalid.
fn array(text: &str) -> Option<Vec<i64>> {
    let lines: Vec<&str> = text.lines().collect();
    let [n, values] = lines[..] else {
        return None;
    };
    let n: usize = n.trim().parse().ok()?;
    let values = integers(values)?;
    (n >= 1 && values.len() == n && values.iter().all(|v| v.abs() <= 100)).then_some(values)
}

/// Maximum subarray sum, and the classic wrong version that starts from 0 (it
/// answers 0 on an all-negative array).
fn best(values: &[i64]) -> i64 {
    let mut best = values[0];
    for i in 0..values.len() {
        for j in i..values.len() {
            best = best.max(values[i..=j].iter().sum());
        }
    }
    best
}

fn kadane_from_zero(values: &[i64]) -> i64 {
    let (mut best, mut here) = (0, 0);
    for &v in values {
        here = (here + v).max(0);
        best = best.max(here);
    }
    best
}

fn max_subarray(text: &str) -> Trial {
    match array(text) {
        None => Trial::Invalid,
        Some(values) if best(&values) != kadane_from_zero(&values) => Trial::Fails,
        Some(_) => Trial::Passes,
    }
}

fn shrunk(text: &str, test: impl FnMut(&str) -> Trial) -> ShrunkText {
    shrink(text, test, NO_LIMIT, &mut |_, _| {})
}

/// Asserts that `result` took at most half again the candidates the
/// shrinker took on the same fixture before it had columns, coupled edits
/// and bisection (`before`, measured at c595782): the bound those were held
/// to.
/// The shrink ended in a local minimum, and `text` is it.
#[track_caller]
fn minimum_is(result: &ShrunkText, text: &str) {
    assert_eq!(result.text, text, "{result:?}");
    assert_eq!(result.stop, Some(Stop::LocalMinimum), "{result:?}");
}

fn at_most_half_again(result: &ShrunkText, before: usize) {
    assert!(
        result.attempts * 2 <= before * 3,
        "{} candidates, {before} before: {result:?}",
        result.attempts
    );
}

#[test]
fn an_all_negative_array_shrinks_to_one_number_through_its_count() {
    let values: Vec<String> = (0..40).map(|i| format!("-{}", 50 + i)).collect();
    let text = format!("40\n{}\n", values.join(" "));
    let result = shrunk(&text, max_subarray);
    at_most_half_again(&result, 17);
    assert_eq!(result.text, "1\n-1\n");
    assert_eq!(result.before.tokens, 41);
    assert_eq!(result.after.tokens, 2);
    assert_eq!(result.stop, Some(Stop::LocalMinimum));
    assert!(result.count_edits > 0, "{result:?}");
    assert!(result.invalid > 0, "{result:?}");
}

#[test]
fn a_count_with_one_item_a_line_shrinks_the_same_way() {
    // "N", then N lines of one integer; fails when every value is negative.
    let test = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        let Some((n, rest)) = lines.split_first() else {
            return Trial::Invalid;
        };
        let values: Option<Vec<i64>> = rest.iter().map(|l| l.trim().parse().ok()).collect();
        match (n.trim().parse::<usize>(), values) {
            (Ok(n), Some(values)) if n >= 1 && n == values.len() => {
                if values.iter().all(|&v| v < 0) {
                    Trial::Fails
                } else {
                    Trial::Passes
                }
            }
            _ => Trial::Invalid,
        }
    };
    let text: String = std::iter::once("25".to_string())
        .chain((0..25).map(|i| format!("{}", -(i * 7 + 3))))
        .map(|l| l + "\n")
        .collect();
    let result = shrunk(&text, test);
    at_most_half_again(&result, 15);
    minimum_is(&result, "1\n-1\n");
}

#[test]
fn several_test_cases_shrink_to_the_one_that_fails() {
    // "T", then T cases of "n" and a line of n integers; the failure is a
    // case whose values are all negative.
    let test = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        let Some(t) = lines.first().and_then(|l| l.trim().parse::<usize>().ok()) else {
            return Trial::Invalid;
        };
        if t == 0 || lines.len() != 1 + 2 * t {
            return Trial::Invalid;
        }
        let mut fails = false;
        for case in lines[1..].chunks(2) {
            match array(&format!("{}\n{}\n", case[0], case[1])) {
                None => return Trial::Invalid,
                Some(values) => fails |= best(&values) != kadane_from_zero(&values),
            }
        }
        if fails {
            Trial::Fails
        } else {
            Trial::Passes
        }
    };
    let text = "4\n3\n1 2 3\n2\n-5 7\n3\n-4 -9 -2\n1\n8\n";
    let result = shrunk(text, test);
    at_most_half_again(&result, 108);
    minimum_is(&result, "1\n1\n-1\n");
}

#[test]
fn words_are_shortened_and_dropped() {
    // Fails while some word holds a 'z'; a line of words and its count.
    let test = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        let [n, words] = lines[..] else {
            return Trial::Invalid;
        };
        let words: Vec<&str> = words.split_whitespace().collect();
        if n.trim().parse() != Ok(words.len()) || words.is_empty() {
            return Trial::Invalid;
        }
        if words.iter().any(|w| w.contains('z')) {
            Trial::Fails
        } else {
            Trial::Passes
        }
    };
    let result = shrunk("3\nalpha bravo_zulu charlie\n", test);
    at_most_half_again(&result, 17);
    assert_eq!(result.text, "1\nz\n");
}

#[test]
fn a_string_shrinks_with_its_length() {
    // "n", then a string of n letters; fails while it holds "ab".
    let test = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        let [n, word] = lines[..] else {
            return Trial::Invalid;
        };
        if n.trim().parse() != Ok(word.trim().len()) || word.trim().is_empty() {
            return Trial::Invalid;
        }
        if word.contains("ab") {
            Trial::Fails
        } else {
            Trial::Passes
        }
    };
    let result = shrunk("13\nxyzzyabracadb\n", test);
    at_most_half_again(&result, 20);
    assert_eq!(result.text, "2\nab\n");
    assert!(result.count_edits > 0, "{result:?}");
}

#[test]
fn every_candidate_is_asked_once_and_only_failing_ones_are_kept() {
    let mut asked = HashSet::new();
    let text = "6\n-3 -1 -4 -1 -5 -9\n";
    let result = shrunk(text, |candidate| {
        assert!(
            asked.insert(candidate.to_string()),
            "asked twice: {candidate:?}"
        );
        max_subarray(candidate)
    });
    assert!(array(&result.text).is_some(), "{result:?}");
    at_most_half_again(&result, 13);
    assert_eq!(max_subarray(&result.text), Trial::Fails);
    assert_eq!(result.attempts, asked.len());
}

#[test]
fn the_budget_cuts_the_search_off_and_says_so() {
    let values: Vec<String> = (0..30).map(|i| format!("-{}", 10 + i)).collect();
    let text = format!("30\n{}\n", values.join(" "));
    let mut seen = 0;
    let result = shrink(
        &text,
        max_subarray,
        Budget {
            attempts: 5,
            time: None,
        },
        &mut |_, attempts| seen = attempts,
    );
    assert_eq!(result.stop, Some(Stop::Attempts));
    assert_eq!(result.attempts, 5);
    assert_eq!(seen, 5);
    assert_eq!(max_subarray(&result.text), Trial::Fails);
}

#[test]
fn a_failure_that_needs_its_spacing_is_left_as_it_came() {
    // Fails only on a double space: rewriting the whitespace loses it.
    let text = "2\n-1  -2\n";
    let result = shrunk(text, |candidate| {
        if candidate.contains("  ") {
            Trial::Fails
        } else {
            Trial::Passes
        }
    });
    assert_eq!(result.text, text);
    assert_eq!(result.after, result.before);
    assert_eq!(result.stop, None);
    assert_eq!(result.attempts, 1);
    // With no candidate allowed, the same text comes back, cut off.
    let cut = shrink(
        text,
        |_| Trial::Fails,
        Budget {
            attempts: 0,
            time: None,
        },
        &mut |_, _| {},
    );
    assert_eq!((cut.text.as_str(), cut.after), (text, cut.before));
    assert_eq!(cut.stop, Some(Stop::Attempts));
}

#[test]
fn a_line_skipped_for_its_shape_is_tried_before_a_minimum_is_claimed() {
    // The first line must hold three integers; the second may hold any
    // number of tokens and fails while it holds "x". The first line's token
    // removals are all invalid, so lines of three tokens are skipped, the
    // second line too, until the thorough round removes its other tokens.
    let test = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        match lines[..] {
            [first, second] if integers(first).is_some_and(|v| v.len() == 3) => {
                if second.split_whitespace().any(|t| t == "x") {
                    Trial::Fails
                } else {
                    Trial::Passes
                }
            }
            _ => Trial::Invalid,
        }
    };
    let result = shrunk("1 2 3\n7 x 9\n", test);
    at_most_half_again(&result, 25);
    minimum_is(&result, "0 0 0\nx\n");
}

#[test]
fn sizes_count_tokens_lines_and_bytes() {
    let size = Size::of("3\n1 2  3\n\n");
    assert_eq!((size.tokens, size.lines, size.bytes), (4, 3, 10));
    assert_eq!(size.to_string(), "4 tokens, 3 lines, 10 bytes");
    assert_eq!(Size::of("7").to_string(), "1 token, 1 line, 1 byte");
}

#[test]
fn counts_are_guessed_from_what_follows_them() {
    // "N M", then a line of M numbers, then N lines: a removal in the
    // M-line is retried with M first; one of the N lines with N among the
    // first two (M is as likely a count for all the shape says).
    let doc = Doc::parse("3 2\n10 20\n5\n6\n7\n");
    let (n, m) = (doc.lines[0][0].id, doc.lines[0][1].id);
    let in_line = guesses(
        &doc,
        Region::Tokens {
            line: 1,
            start: 1,
            len: 1,
        },
        &[],
    );
    assert_eq!(in_line[0], m, "{in_line:?}");
    let lines = guesses(&doc, Region::Lines { start: 4, len: 1 }, &[]);
    assert!(lines[..2].contains(&n), "{lines:?}");
    // Learned counts are not guessed again.
    assert!(!guesses(&doc, Region::Lines { start: 4, len: 1 }, &[n]).contains(&n));
    assert!(guesses(&doc, Region::Lines { start: 0, len: 1 }, &[]).is_empty());
    let doc = Doc::parse("5\n1 2\n3 4 5\n");
    assert_eq!(
        amounts(Region::Lines { start: 1, len: 2 }, &doc),
        vec![2, 5, 1]
    );
    let one = Region::Tokens {
        line: 2,
        start: 0,
        len: 1,
    };
    assert_eq!(amounts(one, &doc), vec![1]);
}

#[test]
fn a_large_array_shrinks_in_few_candidates() {
    // Two thousand numbers, one negative run in the middle: delta debugging
    // halves its way there instead of trying numbers one by one.
    let values: Vec<String> = (0..2000)
        .map(|i| {
            if (900..905).contains(&i) {
                "-7".to_string()
            } else {
                format!("{}", i % 13 + 1)
            }
        })
        .collect();
    let text = format!("2000\n{}\n", values.join(" "));
    // Fails while the array holds two adjacent equal negative numbers.
    let test = |candidate: &str| match array_any(candidate) {
        None => Trial::Invalid,
        Some(v) if v.windows(2).any(|w| w[0] < 0 && w[0] == w[1]) => Trial::Fails,
        Some(_) => Trial::Passes,
    };
    let result = shrunk(&text, test);
    at_most_half_again(&result, 30);
    // Lowering one of the two alone breaks the pair: a local minimum.
    minimum_is(&result, "2\n-7 -7\n");
    assert!(result.attempts < 100, "{result:?}");
}

/// "N" then N integers of any size.
fn array_any(text: &str) -> Option<Vec<i64>> {
    let lines: Vec<&str> = text.lines().collect();
    let [n, values] = lines[..] else {
        return None;
    };
    let values = integers(values)?;
    (n.trim().parse() == Ok(values.len()) && !values.is_empty()).then_some(values)
}

/// "n m", then m lines "u v w" with 1 <= u, v <= n and w >= 1.
fn graph(text: &str) -> Option<Vec<[i64; 3]>> {
    let lines: Vec<&str> = text.lines().collect();
    let (head, edges) = lines.split_first()?;
    let [n, m] = integers(head)?[..] else {
        return None;
    };
    let edges: Vec<[i64; 3]> = edges
        .iter()
        .map(|l| integers(l)?.try_into().ok())
        .collect::<Option<_>>()?;
    let fits = |e: &[i64; 3]| (1..=n).contains(&e[0]) && (1..=n).contains(&e[1]) && e[2] >= 1;
    (n >= 1 && m as usize == edges.len() && edges.iter().all(fits)).then_some(edges)
}

#[test]
fn a_graph_shrinks_to_one_edge_without_a_guess_per_token() {
    // Thirty edges, one heavy; fails while some edge weighs 7 or more.
    let mut lines = vec!["12 30".to_string()];
    for i in 0..30 {
        let w = if i == 17 { 9 } else { i % 3 + 1 };
        lines.push(format!("{} {} {w}", i % 12 + 1, (i * 5) % 12 + 1));
    }
    let text = lines.join("\n") + "\n";
    let test = |candidate: &str| match graph(candidate) {
        None => Trial::Invalid,
        Some(edges) if edges.iter().any(|e| e[2] >= 7) => Trial::Fails,
        Some(_) => Trial::Passes,
    };
    let result = shrunk(&text, test);
    at_most_half_again(&result, 67);
    minimum_is(&result, "1 1\n1 1 7\n");
    assert!(result.attempts < 100, "{result:?}");
}

#[test]
fn repeated_labels_are_renumbered_together() {
    // A path 40 - 25 - 40 in a graph of 50 vertices: the failure needs an
    // edge back to where it started (u of the first equals v of the second),
    // which lowering one 40 alone breaks.
    let test = |candidate: &str| match graph(candidate) {
        None => Trial::Invalid,
        Some(edges)
            if edges
                .windows(2)
                .any(|w| w[0][0] == w[1][1] && w[0][0] != w[0][1]) =>
        {
            Trial::Fails
        }
        Some(_) => Trial::Passes,
    };
    let result = shrunk("50 2\n40 25 3\n25 40 3\n", test);
    at_most_half_again(&result, 65);
    minimum_is(&result, "2 2\n1 2 1\n1 1 1\n");
}

#[test]
fn a_repeated_number_held_above_one_by_a_bound_is_bisected_down_to_it() {
    // Guess the number's test `n x` (2 <= n, 1 <= x <= n), failing only
    // with x = n: both must come down together, and 1 1 is invalid.
    let test = |candidate: &str| {
        let v: Vec<i64> = candidate
            .split_whitespace()
            .filter_map(|t| t.parse().ok())
            .collect();
        match v[..] {
            [n, x] if n >= 2 && (1..=n).contains(&x) => {
                if x == n {
                    Trial::Fails
                } else {
                    Trial::Passes
                }
            }
            _ => Trial::Invalid,
        }
    };
    let result = shrunk("139 139\n", test);
    minimum_is(&result, "2 2\n");
    assert!(result.attempts < 30, "{} candidates", result.attempts);
}

#[test]
fn a_count_beside_another_number_is_found_for_the_next_line() {
    // "n S", then n numbers; fails while two numbers sum to S at one index
    // (a number exactly half of S). The count is first on its line, its data
    // on the next.
    let test = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        let [head, values] = lines[..] else {
            return Trial::Invalid;
        };
        let (Some([n, s]), Some(values)) = (
            integers(head).and_then(|h| <[i64; 2]>::try_from(h).ok()),
            integers(values),
        ) else {
            return Trial::Invalid;
        };
        if n < 1 || n as usize != values.len() || values.iter().any(|&v| v < 1) {
            return Trial::Invalid;
        }
        if values.iter().any(|&v| 2 * v == s) {
            Trial::Fails
        } else {
            Trial::Passes
        }
    };
    let values: Vec<String> = (0..30).map(|i| (i * 37 % 200 + 1).to_string()).collect();
    let text = format!("30 {}\n{}\n", 2 * (6 * 37 % 200 + 1), values.join(" "));
    let result = shrunk(&text, test);
    at_most_half_again(&result, 35);
    assert_eq!(result.after.tokens, 3, "{result:?}");
    assert!(result.text.starts_with("1 "), "{result:?}");
}

#[test]
fn a_grid_loses_rows_through_its_count() {
    // "r c", then r rows of c characters; fails while some row is "#.#".
    let test = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        let Some((head, rows)) = lines.split_first() else {
            return Trial::Invalid;
        };
        let Some([r, c]) = integers(head).and_then(|h| <[i64; 2]>::try_from(h).ok()) else {
            return Trial::Invalid;
        };
        let shaped = rows
            .iter()
            .all(|row| row.len() as i64 == c && row.chars().all(|ch| ch == '.' || ch == '#'));
        if r < 1 || r as usize != rows.len() || !shaped {
            return Trial::Invalid;
        }
        if rows.contains(&"#.#") {
            Trial::Fails
        } else {
            Trial::Passes
        }
    };
    let rows = ["..#", "#.#", "##.", "...", "#.."];
    let text = format!("5 3\n{}\n", rows.join("\n"));
    let result = shrunk(&text, test);
    at_most_half_again(&result, 24);
    minimum_is(&result, "1 3\n#.#\n");
}

#[test]
fn extreme_numbers_and_odd_inputs_do_not_upset_the_shrinker() {
    // The smallest i128, a number past i128, a lone minus sign, no final
    // newline: fails while some token is an integer below -1000, which the
    // number pass lowers from i128::MIN.
    let text = "4\n-170141183460469231731687303715884105728 999999999999999999999999999999999999999999 - 7";
    let result = shrunk(text, |candidate| {
        let below = |t: &str| t.parse::<i128>().is_ok_and(|v| v < -1000);
        if candidate.split_whitespace().any(below) {
            Trial::Fails
        } else {
            Trial::Passes
        }
    });
    let value: i128 = result.text.trim().parse().expect("one number left");
    at_most_half_again(&result, 16);
    assert!((-1999..-1000).contains(&value), "{result:?}");
    assert_eq!(result.stop, Some(Stop::LocalMinimum));
    // Nothing at all to shrink.
    let empty = shrunk("", |_| Trial::Fails);
    assert_eq!((empty.text.as_str(), empty.attempts), ("", 0));
}

#[test]
fn a_count_may_reach_zero_but_not_below() {
    // "n", then a line of n numbers (none at all when n is 0); fails while
    // n is even. Removing the data line takes n down by two, to 0.
    let test = |text: &str| {
        let lines: Vec<&str> = text.lines().collect();
        let Some(n) = lines.first().and_then(|l| l.trim().parse::<i64>().ok()) else {
            return Trial::Invalid;
        };
        let items = lines.get(1).map_or(0, |l| l.split_whitespace().count()) as i64;
        if n < 0 || n != items || lines.len() > 2 {
            Trial::Invalid
        } else if n % 2 == 0 {
            Trial::Fails
        } else {
            Trial::Passes
        }
    };
    let result = shrunk("2\n5 6\n", test);
    at_most_half_again(&result, 5);
    assert_eq!(result.text, "0\n");
}
