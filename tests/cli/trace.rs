//! `lockstep solve PUZZLE --trace` end to end, on every statement example
//! the corpus holds (origin `sample`) of each puzzle that has a trace. The
//! trace must end with the statement's answer (an oracle the reference and
//! core do not share), and its steps must add up to that answer: the moves
//! a footholds line or a robots game counts, the turn a new-game2 game ends
//! on, the legal moves before a checkers ruling, a duel line's result.

use crate::support::{corpus_dir, lockstep, text};
use lockstep_harness::corpus::{decode_for, load, path_for, Origin};
use lockstep_harness::puzzle::Puzzle;
use lockstep_harness::puzzles::{Checkers, Duel, Footholds, NewGame2, Robots};

/// Each sample row's input and expected output.
fn samples<P: Puzzle>() -> Vec<(String, String)> {
    let rows = load::<P>(&path_for::<P>(&corpus_dir())).unwrap();
    let samples: Vec<(String, String)> = rows
        .into_iter()
        .filter(|l| l.row.origin == Origin::Sample)
        .map(|l| {
            (
                decode_for::<P>(&l.row.input),
                decode_for::<P>(&l.row.expected),
            )
        })
        .collect();
    assert!(!samples.is_empty(), "{}: no sample rows", P::NAME);
    samples
}

/// The trace of each sample of `P`, each checked to end with the
/// statement's answer, then given to `steps` with that answer.
fn traces<P: Puzzle>(steps: impl Fn(&str, &str)) {
    for (input, expected) in samples::<P>() {
        let out = lockstep(&["solve", P::NAME, "--trace"], &input);
        let stdout = text(&out.stdout);
        assert!(
            out.status.success(),
            "{}: {stdout}{}",
            P::NAME,
            text(&out.stderr)
        );
        let (body, answer) = stdout
            .split_once("answer (the reference's judge output):\n")
            .unwrap_or_else(|| panic!("no answer line:\n{stdout}"));
        assert_eq!(answer.trim_end(), expected.trim_end(), "{input}\n{stdout}");
        steps(body, &expected);
    }
}

/// The number in `line` after `word`.
fn after(line: &str, word: &str) -> u64 {
    let rest = &line[line.find(word).expect(word) + word.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

#[test]
fn footholds_trace_is_a_line_as_long_as_the_answer() {
    traces::<Footholds>(|body, expected| {
        let games: Vec<&str> = body.split("game ").skip(1).collect();
        for (game, answer) in games.iter().zip(expected.lines()) {
            let moves = game.lines().filter(|l| l.starts_with("  move ")).count();
            assert_eq!(moves.to_string(), answer, "{game}");
        }
    });
}

#[test]
fn robots_trace_has_a_move_line_for_each_move_made() {
    traces::<Robots>(|body, expected| {
        let games: Vec<&str> = body.split("game ").skip(1).collect();
        let made: Vec<u64> = expected
            .lines()
            .filter(|l| l.contains("after making"))
            .map(|l| after(l, "after making "))
            .collect();
        assert_eq!(games.len(), made.len(), "{body}");
        for (game, made) in games.iter().zip(made) {
            let moves = game.lines().filter(|l| l.starts_with("  move ")).count() as u64;
            assert_eq!(moves, made, "{game}");
        }
    });
}

#[test]
fn new_game2_trace_ends_on_the_answers_turn() {
    traces::<NewGame2>(|body, expected| {
        let last_turn = body.lines().rfind(|l| l.starts_with("turn ")).unwrap();
        match expected.trim() {
            "-1" => assert!(body.contains("no stack reached four pieces"), "{body}"),
            turn => {
                assert_eq!(last_turn, format!("turn {turn}:"), "{body}");
                assert!(
                    body.contains(&format!("the game ends on turn {turn}")),
                    "{body}"
                );
            }
        }
    });
}

#[test]
fn checkers_trace_applies_the_moves_before_the_ruling() {
    traces::<Checkers>(|body, expected| {
        let instances: Vec<&str> = body.split("instance ").skip(1).collect();
        for (instance, ruling) in instances.iter().zip(expected.lines()) {
            let legal = instance
                .lines()
                .filter(|l| l.contains(", legal; after it:"))
                .count();
            match ruling {
                "All moves valid" => assert!(instance.contains("every move is legal")),
                invalid => {
                    let k = after(invalid, "Move ") as usize;
                    assert_eq!(legal, k - 1, "{instance}");
                    assert!(instance.contains(&format!("move {k}: ")), "{instance}");
                    assert!(
                        instance.contains("is not legal here (invalid: "),
                        "{instance}"
                    );
                    assert!(instance.contains("the legal moves: "), "{instance}");
                }
            }
        }
    });
}

#[test]
fn duel_trace_gives_each_lines_result() {
    traces::<Duel>(|body, expected| {
        let results: Vec<&str> = body
            .lines()
            .filter_map(|l| l.strip_prefix("  result: "))
            .collect();
        assert_eq!(results, expected.lines().collect::<Vec<_>>(), "{body}");
        // A line with an illegal list resolves no slot; any other does.
        let resolved = expected.lines().any(|l| !l.contains("illegal"));
        assert_eq!(body.contains("slot 1, "), resolved, "{body}");
        assert_eq!(
            body.contains("no slot is resolved"),
            expected.lines().any(|l| l.contains("illegal")),
            "{body}"
        );
    });
}

/// A puzzle whose answer does not come from steps says so, and bad input
/// is one line with its line number, exit 2, as `solve` says it.
#[test]
fn a_trace_is_refused_cleanly() {
    let out = lockstep(&["solve", "matrix-game", "--trace"], "1 1\n5\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("matrix-game has no step trace"),
        "{}",
        text(&out.stderr)
    );
    let out = lockstep(&["solve", "robots", "--trace"], "1 0\n1 x\n0 0\n");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("error: line 2"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let out = lockstep(&["solve", "robots", "--trace", "--reference"], "0 0\n");
    assert_eq!(out.status.code(), Some(2));
}
