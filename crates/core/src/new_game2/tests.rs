use super::*;
use crate::Model;

const SAMPLE_5: &str = "6 10\n0 1 2 0 1 1\n1 2 0 1 1 0\n2 1 0 1 1 0\n1 0 1 1 0 2\n2 0 1 2 0 1\n0 2 1 0 2 1\n1 1 1\n2 2 2\n3 3 4\n4 4 1\n5 5 3\n6 6 2\n1 6 3\n6 1 2\n2 4 3\n4 2 1\n";

#[test]
fn parse_and_write_round_trip() {
    let case = Case::parse(SAMPLE_5).unwrap();
    assert_eq!(case.n, 6);
    assert_eq!(case.pieces.len(), 10);
    assert_eq!(case.colour(1, 3), Colour::Blue);
    assert_eq!(case.pieces[2].dir, Dir::Down);
    assert_eq!(case.write_input(), SAMPLE_5);
    assert!(case.validate().is_ok());
}

#[test]
fn input_errors_name_the_line() {
    let cases = [
        ("3 4\n", "line 1: N must be in 4..=12, found 3"),
        ("4 11\n", "line 1: K must be in 4..=10, found 11"),
        (
            "4 4\n0 0 0 0\n0 0 3 0\n",
            "line 3: a colour (0 white, 1 red, 2 blue) must be in 0..=2, found 3",
        ),
        (
            "4 4\n0 0 0 0\n0 0 0\n",
            "line 3: expected board row 2 (4 colours), found 3 values",
        ),
        (
            "4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 1\n1 1 2\n",
            "line 7: piece 2 starts on (1,1), which piece 1 already holds",
        ),
        (
            "4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 5\n",
            "line 6: the direction (1 right, 2 left, 3 up, 4 down) must be in 1..=4, found 5",
        ),
        (
            "4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 5 1\n",
            "line 6: the column must be in 1..=4, found 5",
        ),
        (
            "4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 1\n1 2 1\n",
            "line 8: expected piece 3 (row col dir), found end of input",
        ),
        ("", "line 1: expected N and K, found end of input"),
    ];
    crate::input::assert_refused::<Case>(&cases);
}

#[test]
fn step_packing_separates_every_field() {
    let base = Step {
        turn: 3,
        piece: 2,
        from: (1, 2),
        to: (1, 3),
        rule: Rule::Red,
        stack: stack_array([3, 2]),
    };
    let variants = [
        Step { turn: 4, ..base },
        Step { piece: 3, ..base },
        Step {
            from: (2, 2),
            ..base
        },
        Step {
            from: (1, 3),
            ..base
        },
        Step { to: (2, 3), ..base },
        Step { to: (1, 4), ..base },
        Step {
            rule: Rule::White,
            ..base
        },
        Step {
            stack: stack_array([3, 2, 1]),
            ..base
        },
        Step {
            stack: stack_array([2, 3]),
            ..base
        },
    ];
    for variant in variants {
        assert_ne!(variant.packed(), base.packed(), "{variant:?}");
    }
}
