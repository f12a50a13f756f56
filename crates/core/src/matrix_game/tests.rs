use super::*;

#[test]
fn values_snap_to_their_fraction_and_only_within_epsilon() {
    assert_eq!(Value::snapped(3.0 / 7.0), Value::Exact(3, 7));
    assert_eq!(Value::snapped(-2.0 + 1e-12), Value::Exact(-2, 1));
    assert_eq!(Value::snapped(3.0 / 7.0 + 1e-12), Value::Exact(3, 7));
    assert_ne!(Value::snapped(3.0 / 7.0 + 1e-8), Value::Exact(3, 7));
    assert_eq!(
        Value::snapped(0.123_456_789_123).to_string().chars().next(),
        Some('~')
    );
    assert_eq!(Value::Exact(-5, 3).to_string(), "-5/3");
}

#[test]
fn a_game_reads_writes_and_solves() {
    let game = Game::parse("2 2\n3 -1\n-2 4\n").unwrap();
    assert_eq!(game.write_input(), "2 2\n3 -1\n-2 4\n");
    assert_eq!(Game::write_answer(&game.solve().answer), "1 1 1\n");
    for (text, line) in [
        ("2 2\n1 2\n", 3),
        ("1 1\n10\n", 2),
        ("0 1\n", 1),
        ("5 5\n4 0 0 0 0\n", 2),
    ] {
        assert_eq!(Game::parse(text).unwrap_err().line, line, "{text:?}");
    }
}
