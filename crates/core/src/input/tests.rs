use super::*;

/// `words` splits as `split_whitespace` does: on every string made of
/// words, each kind of ASCII whitespace (the vertical tab included,
/// which `split_ascii_whitespace` keeps), non-ASCII whitespace and
/// non-ASCII letters, in every order up to length 4.
#[test]
fn words_are_split_whitespace() {
    let pieces = [
        "a", "12", " ", "\t", "\n", "\x0B", "\x0C", "\r", "\u{85}", "\u{A0}", "\u{3000}", "é", "-",
        "\x1F",
    ];
    let mut texts = vec![String::new()];
    let mut checked = 0;
    for _ in 0..4 {
        let mut next = Vec::new();
        for text in &texts {
            for piece in pieces {
                let longer = format!("{text}{piece}");
                let want: Vec<&str> = longer.split_whitespace().collect();
                let got: Vec<&str> = words(&longer).collect();
                assert_eq!(got, want, "{longer:?}");
                checked += 1;
                next.push(longer);
            }
        }
        texts = next;
    }
    assert!(checked > 40_000, "{checked}");
    // Both paths were taken.
    assert!(matches!(words("1 2"), Words::Ascii(_)));
    assert!(matches!(words("1\x0B2"), Words::Unicode(_)));
    assert!(matches!(words("1\u{A0}2"), Words::Unicode(_)));
}

#[test]
fn errors_name_the_line_and_the_expectation() {
    let mut lines = Lines::new("4 4\n0 0 x 0\n");
    let first = lines.next_line("N and K").unwrap();
    assert_eq!(first.int(0, "N", 4..=12u32), Ok(4));
    let second = lines.next_line("a board row").unwrap();
    let err = second.int(2, "colour", 0..=2u8).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2: expected a whole number for colour, found \"x\""
    );
    let err = lines.next_line("a board row").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 3: expected a board row, found end of input"
    );
    // A whole number past the type is out of range, not no number.
    let mut lines = Lines::new("99999999999999999999 -3 -99999999999999999999 +x 1.5\n");
    let line = lines.next_line("N and K").unwrap();
    let said = |i| line.int(i, "N", 4..=12u32).unwrap_err().to_string();
    assert_eq!(
        said(0),
        "line 1: N is too large (at most 12), found 99999999999999999999"
    );
    assert_eq!(said(1), "line 1: N is too small (at least 4), found -3");
    assert_eq!(
        said(2),
        "line 1: N is too small (at least 4), found -99999999999999999999"
    );
    assert_eq!(
        said(3),
        "line 1: expected a whole number for N, found \"+x\""
    );
    assert_eq!(
        said(4),
        "line 1: expected a whole number for N, found \"1.5\""
    );
}

#[test]
fn out_of_range_and_trailing_text_are_errors() {
    let line = Lines::new("13").next_line("N").unwrap();
    assert_eq!(
        line.int(0, "N", 4..=12u32).unwrap_err().to_string(),
        "line 1: N must be in 4..=12, found 13"
    );
    let mut lines = Lines::new("1\n\n2\n");
    lines.next_line("x").unwrap();
    assert_eq!(
        lines.finish().unwrap_err().to_string(),
        "line 3: unexpected text after the end of the input"
    );
    let mut lines = Lines::new("1\n\n  \n");
    lines.next_line("x").unwrap();
    assert!(lines.finish().is_ok());
}
