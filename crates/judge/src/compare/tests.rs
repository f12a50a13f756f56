use super::*;

fn parse(text: &str) -> Comparison {
    text.parse().unwrap()
}

/// Each (expected, got, what the difference says) under `comparison`.
fn differs(comparison: &Comparison, rows: &[(&str, &str, &str)]) {
    for &(expected, got, says) in rows {
        assert_eq!(
            comparison.difference(expected, got).as_deref(),
            Some(says),
            "{got:?}"
        );
    }
}

#[test]
fn tokens_ignore_how_lines_break_and_name_the_first_other_token() {
    let tokens = parse("tokens");
    assert!(tokens.same("1 2\n3\n", "1\n2 3"));
    assert!(!tokens.same("1 2 3", "1 2"));
    differs(
        &tokens,
        &[
            ("1 2\n3\n", "1 2\n4\n", "token 3: expected \"3\" (line 2), got \"4\" (line 2) (3 tokens expected, 3 got)"),
            ("1", "1 9", "token 2: expected the end of the output, got \"9\" (line 1) (1 tokens expected, 2 got)"),
        ],
    );
}

#[test]
fn lines_keep_todays_rule_and_exact_counts_every_byte() {
    let (lines, exact) = (parse("lines"), parse("exact"));
    assert!(lines.same("1 2\n", "1 2  \n\n"));
    assert!(!lines.same("1 2\n", "1\n2\n"));
    assert!(exact.same("1 2\n", "1 2\n"));
    differs(
        &exact,
        &[
            (
                "1 2\n",
                "1 2 \n",
                "line 1 (exact): expected \"1 2\\n\", got \"1 2 \\n\"",
            ),
            (
                "1\n2\n",
                "1\n2",
                "line 2 (exact): expected \"2\\n\", got \"2\"",
            ),
            (
                "1\n",
                "1\n2\n",
                "line 2 (exact): expected the end of the output, got \"2\\n\"",
            ),
        ],
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
    assert!(!reals_match(f64::INFINITY, -2e300, 0.0));
    assert!(!reals_match(f64::NEG_INFINITY, f64::NAN, 0.0));
    assert!(
        !reals_match(1e300, 2e300, 0.5),
        "1e300 is finite, 2e300 is not"
    );
}

/// doubleCompare's edges exactly: the absolute bound is eps + 1e-15;
/// the relative bounds are expected * (1 -+ eps), each with 1e-15 of
/// slack, not expected * (1 -+ (eps + 1e-15)).
#[test]
fn reals_match_at_testlibs_edges() {
    let eps = 1e-6;
    assert!(reals_match(0.0, 1e-6, eps));
    assert!(
        reals_match(0.0, 1e-6 + 5e-16, eps),
        "within the absolute 1e-15"
    );
    assert!(!reals_match(0.0, 1.000001e-6, eps));
    assert!(!reals_match(0.0, -1.000001e-6, eps));
    // 1e6 with 1e-6: the relative range is 999999 ..= 1000000.9999999999
    // (1e6 * 1.000001 in doubles, as in testlib's).
    assert!(reals_match(1e6, 1000000.9999999999, eps));
    assert!(reals_match(1e6, 999999.0, eps));
    // 5e-10 past it: inside 1e6 * (1 + eps + 1e-15), the old bound,
    // but past 1e6 * (1 + eps) + 1e-15, testlib's.
    assert!(!reals_match(1e6, 1000001.0000000005, eps));
    assert!(!reals_match(1e6, 999998.9999999995, eps));
    // A negative expected value: the bounds are ordered.
    assert!(reals_match(-1e6, -1000000.9999999999, eps));
    assert!(!reals_match(-1e6, -1000001.0000000005, eps));
    // eps 0: equal, or within 1e-15.
    assert!(reals_match(0.1, 0.1 + 1e-16, 0.0));
    assert!(!reals_match(0.1, 0.1 + 1e-14, 0.0));
}

/// What testlib's readDouble refuses is not a number here either.
#[test]
fn reals_are_read_as_testlib_reads_them() {
    for good in [
        "1", "-1", "+1", ".5", "5.", "-.5", "1e5", "1E+5", "2.5e-3", "-0", "007",
    ] {
        assert!(parse_real(good).is_some(), "{good}");
    }
    assert_eq!(
        parse_real("1e400"),
        Some(f64::INFINITY),
        "strtod's overflow"
    );
    assert_eq!(parse_real("-1e400"), Some(f64::NEG_INFINITY));
    assert_eq!(parse_real("1e-400"), Some(0.0));
    for bad in [
        "inf", "-inf", "nan", "NaN", "infinity", "Infinity", "0x1p3", "0x10", "1e", "e5", "1e5e5",
        "1.2.3", "--1", "+-1", "1-", "1,5", ".", "-", "", "1_000", "１",
    ] {
        assert_eq!(parse_real(bad), None, "{bad}");
    }
    let real = parse("real:1e-6");
    // Rust would read both as infinities, and testlib neither: tokens.
    assert!(real.same("inf", "inf"));
    assert!(!real.same("inf", "1e400"));
    assert!(real
        .difference("1.5", "nan")
        .unwrap()
        .contains("expected a number"));
    assert!(real.same("1e301", "1e400"), "both beyond 1e300");
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
