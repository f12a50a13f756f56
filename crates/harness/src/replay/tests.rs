use super::*;
use crate::puzzles::new_game2::NewGame2;

/// The round trip passes a case the parser made, and fails one that
/// prints a text the parser refuses (a piece off the board).
#[test]
fn round_trip_problem_flags_a_case_that_does_not_read_back() {
    let text = "4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 1\n1 2 1\n1 3 1\n2 4 3\n";
    let mut case = <NewGame2 as Puzzle>::Case::parse(text).unwrap();
    assert_eq!(round_trip_problem::<NewGame2>(&case), None);
    case.pieces[3].row = 9;
    let problem = round_trip_problem::<NewGame2>(&case).expect("a problem");
    assert!(problem.contains("does not read back"), "{problem}");
    assert!(problem.contains("9 4 3"), "{problem}");
}
