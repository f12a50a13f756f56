use super::*;
use crate::Model;

const TWO: &str = "3 1\n26 27 19\n-22\n1 W\n22-31-24-15\n1 1\n1\n22\n2 W\n22-18\n1-6\n0 0\n";

#[test]
fn parse_and_write_round_trip() {
    let case = Case::parse(TWO).unwrap();
    assert_eq!(case.instances.len(), 2);
    let first = &case.instances[0];
    assert_eq!(
        first.white,
        [Piece {
            square: 22,
            king: true
        }]
    );
    assert_eq!(first.to_move, Side::White);
    assert_eq!(first.moves, [Move(vec![22, 31, 24, 15])]);
    assert_eq!(case.write_input(), TWO);
    assert!(case.instances.iter().all(|i| i.validate().is_ok()));
}

#[test]
fn squares_off_the_board_in_a_move_are_not_input_errors() {
    let case = Case::parse("1 1\n14\n18\n1 R\n0-99-14\n0 0\n").unwrap();
    assert_eq!(case.instances[0].moves[0], Move(vec![0, 99, 14]));
}

#[test]
fn input_errors_name_the_line() {
    let cases = [
        ("", "line 1: expected r and w (or 0 0 to end the input), found end of input"),
        ("1 1\n14\n18\n1 R\n14-18\n", "line 6: expected r and w (or 0 0 to end the input), found end of input"),
        ("13 1\n", "line 1: r must be in 0..=12, found 13"),
        ("0 1\n", "line 1: r and w must both be in 1..=12 (0 0 ends the input), found 0 1"),
        ("1 1\n14 15\n", "line 2: expected 1 Red squares, found 2 values"),
        ("1 1\n33\n", "line 2: a Red square (negative for a king) must be in -32..=32, found 33"),
        ("1 1\n0\n", "line 2: a Red square cannot be 0"),
        ("1 1\n14\n-14\n", "line 3: square 14 holds two pieces (the statement promises legal positions)"),
        ("1 1\n30\n", "line 2: a Red man on 30, Red's promotion row (the statement promises it is a king there)"),
        ("1 1\n14\n18\n1 X\n", "line 4: expected the side to move, R or W, found \"X\""),
        ("1 1\n14\n18\n0 R\n", "line 4: m (the number of moves) must be in 1..=4294967295, found 0"),
        ("1 1\n14\n18\n1 R\n14\n", "line 5: move 1 must name 2..=13 squares joined by -, found \"14\""),
        ("1 1\n14\n18\n1 R\n14--18\n", "line 5: expected a whole number for a square of the move, found \"\""),
        ("1 1\n14\n18\n1 R\n14-x\n", "line 5: expected a whole number for a square of the move, found \"x\""),
        ("1 1\n14\n18\n1 R\n14 - 18\n", "line 5: expected move 1 (squares joined by -), found 3 values"),
        ("1 1\n14\n18\n1 R\n1-2-3-4-5-6-7-8-9-10-11-12-13-14\n", "line 5: move 1 must name 2..=13 squares joined by -, found \"1-2-3-4-5-6-7-8-9-10-11-12-13-14\""),
        ("0 0\n1\n", "line 2: unexpected text after the end of the input"),
    ];
    crate::input::assert_refused::<Case>(&cases);
}

#[test]
fn answers_are_written_as_the_judge_expects() {
    assert_eq!(
        Case::write_answer(&vec![Ruling::AllValid, Ruling::Invalid(3)]),
        "All moves valid\nMove 3 is invalid\n"
    );
}

#[test]
fn board_packing_separates_sides_and_kings() {
    let a = Board {
        red: 1,
        white: 2,
        kings: 0,
    };
    let b = Board {
        red: 2,
        white: 1,
        kings: 0,
    };
    let c = Board { kings: 1, ..a };
    assert_ne!(a.packed(), b.packed());
    assert_ne!(a.packed(), c.packed());
}
