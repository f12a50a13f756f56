use super::*;

/// The statement's protocol example (docs/guide/src/rules/duel.md, "Examples").
#[test]
fn the_statements_lines_read_and_write_back() {
    let init: Init = "INIT 2 4 4 3 4 5".parse().unwrap();
    assert_eq!(
        init,
        Init {
            spring: (2, 4),
            p1: (4, 3),
            p2: (4, 5)
        }
    );
    assert_eq!(init.to_string(), "INIT 2 4 4 3 4 5");
    for line in [
        "TURN 999 1 4 3 10 0 4 5 10 0 0 0",
        "TURN 994 2 3 3 10 0 3 5 10 0 1 U 2 L",
        "TURN 992 2 3 3 10 0 3 5 10 0 1 U 2 R",
        "TURN 5 60 1 1 -2 9 7 7 1 0 7 UR 0",
    ] {
        let turn: TurnLine = line.parse().unwrap();
        assert_eq!(turn.to_string(), line);
    }
    let turn: TurnLine = "TURN 994 2 3 3 10 0 3 5 10 0 1 U 2 L".parse().unwrap();
    assert_eq!((turn.time_ms, turn.turn), (994, 2));
    assert_eq!(turn.players[1].pos, (3, 5));
    assert_eq!(write_actions(&turn.previous), "1 U 2 L");
}

#[test]
fn malformed_lines_are_errors_saying_what() {
    for (line, says) in [
        ("", "expected TURN"),
        ("TURN 1 2 3", "found 3 fields"),
        ("TURN x 1 4 3 10 0 4 5 10 0 0 0", "expected a number"),
        ("TURN 999 1 4 3 10 0 4 5 10 0 9 9", "previous actions"),
        ("INIT 1 2 3", "found 3"),
    ] {
        let error = if line.starts_with("INIT") {
            line.parse::<Init>().unwrap_err()
        } else {
            line.parse::<TurnLine>().unwrap_err()
        };
        assert!(error.0.contains(says), "{line:?}: {error}");
    }
}
