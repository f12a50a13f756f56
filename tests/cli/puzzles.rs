//! Each puzzle's commands end to end: `solve`'s judge I/O and its errors,
//! `perft`, `duel step`, the duel's tournaments and ladder, replay of a
//! row that does not load.

use crate::support::{corpus_dir, fails_with, has, lockstep, scratch, text};
use lockstep_harness::corpus::{decode_for, load, path_for, Origin};
use lockstep_harness::puzzles::Duel;
use std::process::Stdio;

/// The duel's statement examples, as its corpus holds them: each input
/// line with its answer line.
fn duel_examples() -> Vec<(String, String)> {
    let rows = load::<Duel>(&path_for::<Duel>(&corpus_dir())).unwrap();
    let examples: Vec<(String, String)> = rows
        .into_iter()
        .filter(|loaded| loaded.row.origin == Origin::Sample)
        .map(|loaded| {
            let row = loaded.row;
            (
                decode_for::<Duel>(&row.input),
                decode_for::<Duel>(&row.expected),
            )
        })
        .collect();
    assert!(examples.len() >= 2, "the duel's corpus holds its examples");
    examples
}

/// `lockstep perft --divide` names the first moves as written, and
/// `--check-reference` checks every node.
#[test]
fn the_perft_command_divides_and_checks() {
    let out =
        crate::support::lockstep(&["perft", "--depth", "3", "--divide", "--hash-mb", "1"], "");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("9-13 "), "{text}");
    assert!(text.ends_with("total 302\n"), "{text}");
    assert_eq!(text.lines().count(), 8);
    let out = crate::support::lockstep(
        &[
            "perft",
            "--depth",
            "4",
            "--check-reference",
            "--captures",
            "sets",
        ],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("agree at all 359 nodes"), "{text}");
}

#[test]
fn duel_step_answers_and_rejects_malformed_lines() {
    let examples = duel_examples();
    let input: String = examples
        .iter()
        .map(|(i, _)| format!("{}\n", i.trim_end()))
        .collect();
    let expected: String = examples
        .iter()
        .map(|(_, a)| format!("{}\n", a.trim_end()))
        .collect();
    let bad = format!(
        "{}\n{}",
        examples[0].0.trim_end(),
        examples[1].0.trim_end().replace("1 U 0 |", "1 Q 0 |")
    );
    for args in [&["duel", "step"][..], &["duel", "step", "--reference"]] {
        let out = lockstep(args, &input);
        assert_eq!(text(&out.stdout), expected);
        let stderr = fails_with(&lockstep(args, &bad), "line 2");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

fn tournament(opponent: &str, games: usize) -> String {
    let bin = crate::support::BIN;
    let out = crate::support::bin()
        .args(["duel", "tournament", "--p1"])
        .arg(format!("{bin} duel bot"))
        .arg("--p2")
        .arg(format!("{bin} duel bot --strategy {opponent} --seed 5"))
        .args(["--games", &games.to_string(), "--jobs", "2", "--seed", "9"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // How long it took is the bench's to say, not a test's: a loaded
    // machine is slower, and the referee's own per-turn limit is what keeps
    // a game short.
    assert_eq!(out.status.code(), Some(0), "{text}");
    text
}

#[test]
fn the_search_bot_beats_the_baselines_in_short_tournaments() {
    // The search's choices depend on its per-turn deadline, so a loaded machine
    // may change a game: all six against random, at least five against the
    // other baselines (the in-process matches in `duel.rs` hold the rates).
    for (opponent, at_least) in [("random", 6), ("greedy", 5), ("spring", 5), ("chase", 5)] {
        let out = tournament(opponent, 6);
        let wins: usize = out
            .lines()
            .find_map(|l| l.strip_prefix("p1 wins "))
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no result line in {out}"));
        assert!(wins >= at_least, "{out}");
        // Every game ended by a rule (hp, out, blessing, turns), none by a
        // referee's loss (illegal, timeout, crash, malformed, ready).
        let reasons: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split_once(" by: ").map(|(_, list)| list))
            .flat_map(|list| list.split(", "))
            .map(|entry| entry.split(' ').next().unwrap_or(""))
            .collect();
        assert!(!reasons.is_empty(), "{out}");
        for reason in reasons {
            assert!(
                ["hp", "out", "blessing", "turns"].contains(&reason),
                "{reason}: {out}"
            );
        }
        // The referee reports the search bot's own time per game. Its size is
        // a benchmark's to measure (a loaded or instrumented build takes
        // longer), not a test's: the line is checked, not the figure.
        let line = out
            .lines()
            .find(|l| l.starts_with("p1 time per game"))
            .unwrap_or_else(|| panic!("no time line in {out}"));
        let max = line
            .split("max ")
            .nth(1)
            .and_then(|t| t.trim_end_matches(" ms").parse::<u64>().ok());
        assert!(max.is_some(), "{line}");
    }
}

/// `duel ladder` end to end: built-ins and a `--cmd` bot in one table, each
/// pair's games counted, ratings and endings printed; a malformed `--cmd` or a
/// taken name is a usage error.
#[test]
fn the_ladder_tables_built_ins_and_a_command_bot() {
    let bin = crate::support::BIN;
    let out = crate::support::bin()
        .args(["duel", "ladder", "--strategies", "spring,random", "--cmd"])
        .arg(format!("mine={bin} duel bot --strategy chase --seed 3"))
        .args(["--games", "4", "--jobs", "2", "--seed", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}");
    has(&text, &["3 bots, 4 games a pair"]);
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| {
            ["spring ", "random ", "mine "]
                .iter()
                .any(|n| l.starts_with(n))
        })
        .collect();
    // A table row and an endings row per bot.
    assert_eq!(rows.len(), 6, "{text}");
    for row in rows.iter().filter(|r| !r.contains(" max ")) {
        // Two opponents, each a score and an interval.
        assert_eq!(row.matches('(').count(), 2, "{row}");
    }
    // Each bot played 8 games (4 against each of the two others).
    for row in rows.iter().filter(|r| r.contains(" max ")) {
        let games: usize = row
            .split(": ")
            .nth(1)
            .unwrap()
            .split(", ")
            .map(|e| e.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
            .sum();
        assert_eq!(games, 8, "{row}");
    }
    for bad in ["noequals", "spring=x"] {
        let out = crate::support::bin()
            .args(["duel", "ladder", "--cmd", bad, "--games", "2"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn bad_games_are_one_error_line_naming_the_line() {
    for (input, needle) in [
        ("2 2\n1 2\n", "line 3"),
        ("2 2\n1 2\n3\n", "line 3"),
        ("7 1\n", "line 1"),
        ("5 5\n4 0 0 0 0\n", "line 2"),
        ("1 1\n1\n2\n", "line 3"),
    ] {
        let out = lockstep(&["solve", "matrix-game"], input);
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        let err = crate::support::text(&out.stderr);
        assert!(
            err.contains(needle) && err.lines().count() == 1,
            "{input:?}: {err}"
        );
    }
    let out = lockstep(&["solve", "matrix-game"], "2 2\n0 2\n3 -9\n");
    assert_eq!(crate::support::text(&out.stdout), "3/7 3/7 3/7\n");
    let out = lockstep(&["solve", "matrix-game", "--reference"], "2 2\n0 2\n3 -9\n");
    assert_eq!(crate::support::text(&out.stdout), "3/7 3/7 3/7\n");
}

/// A row that does not load does not stop `replay`: every other row of every
/// puzzle is replayed, the broken one is an error row in the report and in
/// the JUnit file, and the exit code says the corpus is broken (2).
#[test]
fn replay_goes_on_past_a_row_that_does_not_load() {
    let dir = scratch("corpus-broken-row");
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    for entry in lockstep_registry::all() {
        let from = entry.corpus_path(&corpus_dir());
        std::fs::copy(&from, entry.corpus_path(&corpus)).unwrap();
    }
    // Two bad rows in the middle of footholds' file (a row of two fields,
    // a name that is not kebab-case); checkers comes after footholds.
    let path = corpus.join("footholds.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "not-a-row,two-fields";
    lines.insert(3, "Bad Name,1 1|1|0 0 0 0,1,hand,x,");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let junit = dir.join("replay.xml");
    let out = crate::support::cli("replay")
        .flag("--corpus", corpus.display())
        .flag("--junit", junit.display())
        .run();
    let stdout = crate::support::text(&out.stdout);
    let stderr = crate::support::text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    has(
        &stdout,
        &[
            "footholds.csv:3 line-3",
            "footholds.csv:4 Bad Name",
            "checkers: ",
            "2 of them do not load",
        ],
    );
    has(&stderr, &["2 rows of the corpus do not load"]);
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report is written");
    has(&xml, &["<error", "checkers"]);
    let _ = std::fs::remove_dir_all(&dir);
}
