use super::*;
use crate::Model;

const SAMPLES: &str = "3 3\n1 1 1\n1 1 1\n1 1 1\n1 0 1 2\n3 3\n1 1 1\n1 0 1\n1 1 1\n1 0 1 2\n1 5\n1 1 1 1 1\n0 0 0 4\n1 1\n1\n0 0 0 0\n";

#[test]
fn parse_and_write_round_trip() {
    let case = Case::parse(SAMPLES).unwrap();
    assert_eq!(case.games.len(), 4);
    assert_eq!(case.games[1].mask().count_ones(), 8);
    assert_eq!(case.games[2].b, (0, 4));
    assert_eq!(case.write_input(), SAMPLES);
    assert!(case.games.iter().all(|g| g.validate().is_ok()));
}

#[test]
fn input_errors_name_the_line() {
    let cases = [
        ("9 1\n", "line 1: H must be in 1..=8, found 9"),
        (
            "1 2\n1 2\n",
            "line 2: a cell (0 or 1) must be in 0..=1, found 2",
        ),
        (
            "1 2\n1 1\n0 0 0 2\n",
            "line 3: bc must be in 0..=1, found 2",
        ),
        (
            "1 2\n1 0\n0 0 0 1\n",
            "line 3: B at (0,1) is not on a foothold",
        ),
        (
            "2 2\n1 1\n",
            "line 3: expected board row 2 of 2 (2 values 0 or 1), found end of input",
        ),
        (
            "1 1\n1\n0 0 0\n",
            "line 3: expected the positions `ar ac br bc`, found 3 values",
        ),
    ];
    crate::input::assert_refused::<Case>(&cases);
    assert_eq!(Case::parse("\n").unwrap().games.len(), 0);
}

#[test]
fn mirror_and_rotation_move_the_players_with_the_board() {
    let game = Case::parse("2 3\n1 1 0\n0 1 1\n0 0 1 2\n")
        .unwrap()
        .games
        .remove(0);
    let mirrored = game.mirrored();
    assert_eq!((mirrored.a, mirrored.b), ((0, 2), (1, 0)));
    assert!(mirrored.validate().is_ok());
    let rotated = game.rotated();
    assert_eq!((rotated.height, rotated.width), (3, 2));
    assert_eq!((rotated.a, rotated.b), ((0, 1), (2, 0)));
    assert!(rotated.validate().is_ok());
    let back = rotated.rotated().rotated().rotated();
    assert_eq!(back, game);
}
