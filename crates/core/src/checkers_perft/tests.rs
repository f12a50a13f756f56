use super::*;
use crate::Model;

#[test]
fn the_start_reads_back_and_counts_as_published() {
    let case = start(3);
    let text = case.write_input();
    assert_eq!(Case::parse(&text), Ok(case.clone()));
    assert_eq!(case.solve().answer, 302);
}

#[test]
fn input_errors_name_the_line() {
    for (text, line) in [
        ("1 1\n14\n18\n", "line 4"),
        ("1 1\n14\n18\n13 R\n", "line 4"),
        ("1 1\n14\n18\n2 X\n", "line 4"),
        ("1 1\n14\n14\n2 R\n", "line 3"),
        ("1 1\n14\n18\n2 R\nmore\n", "line 5"),
    ] {
        let error = Case::parse(text).unwrap_err().to_string();
        assert!(error.starts_with(line), "{text:?}: {error}");
    }
}
