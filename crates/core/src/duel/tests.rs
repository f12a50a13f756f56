use super::*;
use crate::Model;

const LINE: &str = "1 2 4 4 3 10 0 0 0 0 0 0 0 4 5 10 0 0 0 0 0 0 0 | 1 U 2 R | 1 U 2 L";

#[test]
fn a_line_round_trips() {
    let case = Case::parse(LINE).unwrap();
    assert_eq!(case.write_input(), format!("{LINE}\n"));
    assert_eq!(
        case[0].actions[0],
        [Action::new(1, Dir::U), Action::new(2, Dir::R)]
    );
    assert!(case[0].state.validate().is_ok());
}

#[test]
fn malformed_lines_name_the_line() {
    let cases = [
        ("\n1 2 4", "line 2: expected STATE"),
        ("1 2 4 | 0 0 | 0 0", "line 1: expected 23 numbers"),
        (
            &LINE.replace("| 1 U 2 L", "| 9 U 0"),
            "line 1: ACTIONS2: expected an action code",
        ),
        (
            &LINE.replace("| 1 U 2 L", "| 1 U"),
            "line 1: ACTIONS2: expected two actions, found 1",
        ),
        (&LINE.replace("4 5 10", "4 3 10"), "line 1: both players"),
        (
            &LINE.replacen("1 2 4", "61 2 4", 1),
            "line 1: T must be in 1..=60",
        ),
        ("", "line 1: expected a duel step line"),
    ];
    for (input, message) in cases {
        let e = Case::parse(input).unwrap_err().to_string();
        assert!(e.starts_with(message), "{input:?}: {e}");
    }
}

#[test]
fn odd_actions_parse_and_are_judged_illegal() {
    let state = Case::parse(LINE).unwrap()[0].state;
    for (text, legal) in [
        ("0 U 0", false),
        ("1 UR 0", false),
        ("7 UR 0", true),
        ("1 0", false),
        ("2 R 2 L", false),
        ("1 U 1 U", true),
        ("1 D 1 D", true),
        ("7 D 0", true),
        ("7 DR 0", true),
        ("0 7 DR", true),
        ("0 7 UL", true),
        ("4 R 0", true),
    ] {
        let actions = parse_actions(text).unwrap();
        assert_eq!(check_legal(&state, 0, &actions).is_ok(), legal, "{text}");
    }
    let corner = State::initial((1, 1), (1, 1), (7, 7));
    assert!(check_legal(&corner, 0, &parse_actions("1 U 0").unwrap()).is_err());
    assert!(check_legal(&corner, 0, &parse_actions("0 1 U").unwrap()).is_ok());
    assert!(check_legal(&corner, 0, &parse_actions("4 U 0").unwrap()).is_ok());
    assert!(check_legal(&corner, 0, &parse_actions("7 R 0").unwrap()).is_ok());
    assert!(check_legal(&corner, 0, &parse_actions("7 DR 0").unwrap()).is_ok());
    assert!(check_legal(&corner, 0, &parse_actions("7 UR 0").unwrap()).is_err());
}

/// A result equals another exactly when its state and outcome do (the
/// comparison of `TurnResult` is written out, field by field), and equal
/// results hash alike, as the derived order hashes them: on a result
/// and on each of its fields changed alone (every field of both players).
#[test]
fn results_are_equal_exactly_when_their_fields_are() {
    use std::hash::{BuildHasher, BuildHasherDefault};
    let case = Case::parse(LINE).unwrap();
    let base = case.solve().answer[0];
    let mut results = vec![base];
    let mut changed = |change: &dyn Fn(&mut TurnResult)| {
        let mut r = base;
        change(&mut r);
        results.push(r);
    };
    changed(&|r| r.next.turn += 1);
    changed(&|r| r.next.spring.0 += 1);
    changed(&|r| r.next.spring.1 += 1);
    changed(&|r| r.outcome = Outcome::Ended(Winner::Draw, Reason::Turns));
    for p in 0..2 {
        changed(&|r| r.next.players[p].pos.0 += 1);
        changed(&|r| r.next.players[p].pos.1 += 1);
        changed(&|r| r.next.players[p].hp -= 1);
        changed(&|r| r.next.players[p].blessing += 1);
        for w in 0..6 {
            changed(&|r| r.next.players[p].waits[w] += 1);
        }
    }
    assert_eq!(results.len(), 1 + 4 + 2 * 10);
    let hasher = BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default();
    for a in &results {
        assert_eq!(hasher.hash_one(a), hasher.hash_one((a.next, a.outcome)));
        for b in &results {
            let fields = a.next == b.next && a.outcome == b.outcome;
            assert_eq!(a == b, fields, "{a:?} {b:?}");
        }
    }
    assert_eq!(results.iter().filter(|&&r| r == base).count(), 1);
}
