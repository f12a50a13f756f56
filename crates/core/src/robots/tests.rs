use super::*;
use crate::Model;

#[test]
fn feature_bits_are_their_places_in_all() {
    for (i, feature) in Feature::ALL.into_iter().enumerate() {
        assert_eq!(feature.bit(), 1 << i, "{}", feature.name());
    }
}

const SAMPLE: &str = "4 0\n17 18\n13 18\n8 12\n10 12\n4 0\n17 17\n13 17\n13 13\n17 13\n3 3\n17 18\n13 18\n5 31\n15 16\n16 15\n3 7\n0 0\n";

#[test]
fn parse_and_write_round_trip() {
    let case = Case::parse(SAMPLE).unwrap();
    assert_eq!(case.games.len(), 3);
    assert_eq!(case.games[2].robots, [(17, 18), (13, 18), (5, 31)]);
    assert_eq!(case.games[2].teleports, [(15, 16), (16, 15), (3, 7)]);
    assert_eq!(case.write_input(), SAMPLE);
    assert!(case.games.iter().all(|g| g.validate().is_ok()));
}

#[test]
fn input_errors_name_the_line() {
    let cases = [
        ("51 0\n", "line 1: R must be in 0..=50, found 51"),
        ("0 3\n", "line 1: R must be in 1..=50, found 0"),
        ("1 21\n", "line 1: T must be in 0..=20, found 21"),
        (
            "1 0\n15 15\n0 0\n",
            "line 2: a robot may not start on your cell (15,15)",
        ),
        (
            "2 0\n1 1\n1 1\n0 0\n",
            "line 3: robot 2 starts on (1,1), where robot 1 already is",
        ),
        (
            "1 1\n1 1\n32 1\n0 0\n",
            "line 3: the row must be in 1..=31, found 32",
        ),
        (
            "1 0\n1 1 1\n0 0\n",
            "line 2: expected robot 1 (row col), found 3 values",
        ),
        (
            "1 0\n1 1\n",
            "line 3: expected `R T` or the closing `0 0`, found end of input",
        ),
        (
            "1 0\n1 1\n0 0\n5\n",
            "line 4: unexpected text after the end of the input",
        ),
    ];
    crate::input::assert_refused::<Case>(&cases);
}
