//! `lockstep solve PUZZLE --trace` end to end, on every statement example
//! the corpus holds (origin `sample`) of each puzzle that has a trace. The
//! trace must end with the statement's answer (an oracle the reference and
//! core do not share), and its steps must add up to that answer: the moves
//! a footholds line or a robots game counts, the turn a new-game2 game ends
//! on, the legal moves before a checkers ruling, a duel line's result.
//! Then what each trace shows of the state the next step reads (a piece's
//! direction, the debris, the cool-downs, the footholds left), and the
//! reference's fuel: a trace past it stops with a message naming `--fuel`.
//! And every puzzle of the list, traced or refused, on its first corpus row.

use crate::support::{corpus_dir, line_starting, lockstep, text};
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
                .filter(|l| l.contains(", legal; after it, "))
                .count();
            // Whose move it is after each move: the sides alternate from the
            // one the instance names.
            let first = instance.lines().next().unwrap();
            let sides = match first.contains("Red to move") {
                true => ["White", "Red"],
                false => ["Red", "White"],
            };
            for (number, line) in instance
                .lines()
                .filter(|l| l.contains(", legal; after it, "))
                .enumerate()
            {
                let side = format!("after it, {} to move:", sides[number % 2]);
                assert!(line.contains(&side), "{line}\n{instance}");
            }
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

/// Every puzzle of the list, end to end on the first row of its corpus:
/// either a trace ending with the row's expected answer, or a refusal that
/// names the puzzles that have one; and the names a refusal gives are
/// exactly the puzzles whose rows traced here.
#[test]
fn every_puzzle_traces_or_says_which_do() {
    /// `Ok(())` when `P` traced its row, else the list its refusal names.
    fn check<P: Puzzle>() -> (&'static str, Result<(), String>) {
        let rows = load::<P>(&path_for::<P>(&corpus_dir())).unwrap();
        let row = &rows.first().expect("a corpus row").row;
        let (input, expected) = (decode_for::<P>(&row.input), decode_for::<P>(&row.expected));
        let out = lockstep(&["solve", P::NAME, "--trace"], &input);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        if out.status.success() {
            let answer = stdout
                .split_once("answer (the reference's judge output):\n")
                .map(|(_, answer)| answer.trim_end());
            assert_eq!(answer, Some(expected.trim_end()), "{}: {stdout}", P::NAME);
            return (P::NAME, Ok(()));
        }
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", P::NAME);
        let list = stderr
            .split_once(&format!("{} has no step trace: ", P::NAME))
            .and_then(|(_, rest)| rest.split_once(" have one)"))
            .and_then(|(before, _)| before.rsplit_once('('))
            .map(|(_, list)| list.to_string())
            .unwrap_or_else(|| panic!("{}: neither a trace nor a refusal: {stderr}", P::NAME));
        (P::NAME, Err(list))
    }
    let all = lockstep_harness::each_puzzle!(check());
    let traced: Vec<&str> = all
        .iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(name, _)| *name)
        .collect();
    let refusals: Vec<&String> = all.iter().filter_map(|(_, r)| r.as_ref().err()).collect();
    assert!(!traced.is_empty() && !refusals.is_empty(), "{all:?}");
    for list in refusals {
        assert_eq!(*list, traced.join(", "), "{all:?}");
    }
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

/// A game whose piece 1 bounces off the top edge on its first move while
/// carrying nothing, then rides on piece 3: the shrunk failure of a
/// solution that did not keep the reversed direction.
const BOUNCE: &str = "4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 3\n3 1 1\n2 1 1\n1 2 2\n";

/// The trace of `input`, which must succeed; its body before the answer.
fn traced(puzzle: &str, input: &str) -> String {
    let out = lockstep(&["solve", puzzle, "--trace"], input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    stdout
}

/// The hidden state behind every bounce bug: the starting board and
/// pieces, the way a piece faced before its move and after its turn round,
/// and every piece's cell and direction after each turn (a rider keeps its
/// own).
#[test]
fn new_game2_trace_shows_the_board_and_each_pieces_direction() {
    let trace = traced("new-game2", BOUNCE);
    crate::support::has(
        &trace,
        &[
            "the board (. white, r red, B blue), columns 1 to 4 left to right:\n   1 . . . .\n",
            "the pieces at the start: 1 at (1,1) up (3); 2 at (3,1) right (1); 3 at (2,1) right (1); 4 at (1,2) left (2)\n",
            "turn 1:\n  piece 1 facing up (3), from (1,1) to (2,1): turned round (blue or the edge ahead), then onto a white cell; now facing down (4); the stack there, bottom first: 3 1\n",
            // Piece 3 carries piece 1, which keeps facing down.
            "  piece 3 facing right (1), from (2,1) to (2,2): onto a white cell, the group's order kept; the stack there, bottom first: 3 1\n",
            "  after turn 1: 1 at (2,2) down (4); 2 at (3,2) right (1); 3 at (2,2) right (1); 4 at (1,1) left (2)\n",
            "turn 2:\n  piece 1 facing down (4), from (2,2) to (3,2)",
        ],
    );
    // On every sample, the start and each turn list every piece.
    for (input, _) in samples::<NewGame2>() {
        let trace = traced("new-game2", &input);
        let pieces = input.lines().next().unwrap().split(' ').nth(1).unwrap();
        let start = line_starting(&trace, "the pieces at the start: ");
        assert_eq!(
            start.matches(" at (").count().to_string(),
            pieces,
            "{trace}"
        );
        for after in trace.lines().filter(|l| l.starts_with("  after turn ")) {
            assert_eq!(
                after.matches(" at (").count().to_string(),
                pieces,
                "{after}"
            );
        }
    }
}

/// Each duel line's state before it (cells, hp, blessing, every skill's
/// wait) and the next turn's: the thrust's cool-down, the damage, the
/// spring's blessing.
#[test]
fn duel_trace_shows_the_waits_hp_and_blessing_before_and_after() {
    let trace = traced(
        "duel",
        "1 4 3 4 3 10 0 0 0 0 0 0 0 4 4 10 0 0 0 0 0 0 0 | 2 R 0 | 0 0\n",
    );
    crate::support::has(
        &trace,
        &[
            "  turn 1, the spring at (4,3); at the start: P1 at (4,3) hp 10 blessing 0, waits thrust 0 sweep 0 charge 0 guard 0 break 0 dash 0; P2 at (4,4) hp 10 blessing 0, waits thrust 0 sweep 0 charge 0 guard 0 break 0 dash 0\n",
            "  slot 1: P1 plays thrust R (2 R), P2 plays wait (0)\n",
            "  slot 1, pushes and damage: P1 at (4,3) hp 10; P2 at (4,4) hp 8\n",
            "  the next turn's state: P1 at (4,3) hp 10 blessing 1, waits thrust 1 sweep 0 charge 0 guard 0 break 0 dash 0; P2 at (4,4) hp 8 blessing 0, waits thrust 0 sweep 0 charge 0 guard 0 break 0 dash 0\n",
        ],
    );
    // An illegal list: who played it, and every wait counted down.
    let trace = traced(
        "duel",
        "2 2 4 3 3 10 0 1 0 0 0 0 0 3 5 10 0 1 0 0 0 0 0 | 2 R 0 | 1 U 0\n",
    );
    crate::support::has(
        &trace,
        &[
            "P1 at (3,3) hp 10 blessing 0, waits thrust 1 sweep 0",
            "  no slot is resolved: P1's action list is illegal",
            "  the next turn's state: P1 at (3,3) hp 10 blessing 0, waits thrust 0 sweep 0",
        ],
    );
}

/// After each move, the robots' cells and the debris's, as many as the
/// move line counts (in the singular for one).
#[test]
fn robots_trace_lists_the_robots_and_the_debris_after_each_move() {
    let mut singular = false;
    for (input, _) in samples::<Robots>() {
        let trace = traced("robots", &input);
        let lines: Vec<&str> = trace.lines().collect();
        for (index, line) in lines.iter().enumerate() {
            let Some(rest) = line.strip_prefix("  move ") else {
                continue;
            };
            let left = after(rest, "; ");
            let debris = after(rest, " left, ");
            singular |= rest.contains(" 1 cell of debris") || rest.contains(" 1 robot left");
            let (robots, cells) = lines[index + 1]
                .strip_prefix("    robots: ")
                .and_then(|l| l.split_once("; debris: "))
                .unwrap_or_else(|| panic!("no robots and debris after {line}:\n{trace}"));
            assert_eq!(robots.matches('(').count() as u64, left, "{line}");
            assert_eq!(cells.matches('(').count() as u64, debris, "{line}");
        }
    }
    assert!(singular, "no sample has one robot or one cell of debris");
}

/// The board after each move (the footholds left, the players on them),
/// and "1 move", not "1 moves".
#[test]
fn footholds_trace_draws_the_board_after_each_move() {
    let trace = traced("footholds", "1 2\n1 1\n0 0 0 1\n");
    crate::support::has(
        &trace,
        &[
            "game 1: a 1x2 board, A at (0,0), B at (0,1)\n    AB\n",
            "  move 1: A steps from (0,0) to (0,1); (0,0) crumbles; B to move:\n    .X\n",
            "A wins after 1 move\n",
        ],
    );
    assert!(!trace.contains("1 moves"), "{trace}");
}

/// A full board of `height` x `width`, A and B in opposite corners.
fn full_board(height: usize, width: usize) -> String {
    let row = vec!["1"; width].join(" ");
    let rows = vec![row; height].join("\n");
    format!(
        "{height} {width}\n{rows}\n0 0 {} {}\n",
        height - 1,
        width - 1
    )
}

/// A board past a campaign's fuel for a case (2,000,000 positions) is
/// traced: the trace has `solve --reference`'s budget, not a campaign's.
#[test]
fn footholds_trace_takes_a_board_past_a_campaigns_fuel() {
    let trace = traced("footholds", &full_board(5, 6));
    assert_eq!(trace.matches("\n  move ").count(), 28, "{trace}");
    assert!(
        trace.ends_with("answer (the reference's judge output):\n28\n"),
        "{trace}"
    );
}

/// Out of fuel, `--trace` and `--reference` stop at once with one message
/// naming `--fuel`, and nothing on stdout; `--fuel` alone is refused.
#[test]
fn the_reference_out_of_fuel_says_so_and_how_to_give_more() {
    let board = full_board(8, 8);
    for mode in ["--trace", "--reference"] {
        let out = lockstep(&["solve", "footholds", mode, "--fuel", "1000000"], &board);
        assert_eq!(out.status.code(), Some(2), "{mode}");
        assert!(out.stdout.is_empty(), "{mode}: {}", text(&out.stdout));
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("error: the reference ran out of its fuel on this input: 1000000 units (the --fuel given) were not enough; `--fuel UNITS` with more"),
            "{mode}: {stderr}"
        );
    }
    let out = lockstep(&["solve", "footholds", "--fuel", "5"], &board);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--fuel is the reference's budget"));
}

/// The second tier: the heavy hunts, which `cargo test` leaves to CI
/// (some 8 s of the tests' build each).
mod hunt {
    use super::*;

    /// The 8x8 board whose reference solve used to run for minutes with no
    /// word stops with the message under the default fuel (after some 8 s of
    /// the tests' build; a note on stderr says, after 3 s, that it is still
    /// working, which the test does not hold to the clock).
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_large_footholds_trace_stops_with_the_default_fuel() {
        let out = lockstep(&["solve", "footholds", "--trace"], &full_board(8, 8));
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("units (its default for solve) were not enough; `--fuel UNITS`"),
            "{stderr}"
        );
    }
}
