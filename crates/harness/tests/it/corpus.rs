//! The corpus: every row of every puzzle replays, and the loader rejects what the
//! format spec (corpus/README.md) forbids, naming the line.

use crate::support::{corpus_dir, has, scratch};
use lockstep_harness::corpus::{self, Appended, Origin, Row};
use lockstep_harness::puzzles::NewGame2;
use lockstep_harness::replay::every_file;

#[test]
fn every_corpus_row_replays() {
    let mut failures = Vec::new();
    let mut rows = 0;
    for entry in every_file() {
        let report = (entry.replay)(&corpus_dir()).unwrap();
        // Every puzzle's file holds its statement's samples at least.
        assert!(report.rows >= 1, "{}: no rows replayed", entry.module);
        rows += report.rows;
        for f in report.failures {
            failures.push(format!(
                "{} line {} {}: {}",
                entry.module, f.line, f.name, f.problem
            ));
        }
    }
    assert!(
        rows >= 5,
        "the corpus should hold at least the statement samples"
    );
    assert!(
        failures.is_empty(),
        "{} failing rows:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_statement_samples_are_in_the_corpus() {
    let rows = corpus::load::<NewGame2>(&corpus::path_for::<NewGame2>(&corpus_dir())).unwrap();
    let samples: Vec<&str> = rows
        .iter()
        .filter(|l| l.row.origin == Origin::Sample)
        .map(|l| l.row.expected.as_str())
        .collect();
    assert_eq!(samples, ["-1", "1", "1", "2", "7"]);
}

fn load_error(name: &str, contents: &str) -> String {
    let dir = scratch(name);
    let path = dir.join("new_game2.csv");
    std::fs::write(&path, contents).unwrap();
    format!("{:#}", corpus::load::<NewGame2>(&path).unwrap_err())
}

const GOOD_INPUT: &str = "4 4|0 0 0 0|0 0 0 0|0 0 0 0|0 0 0 0|1 1 1|1 2 1|1 3 1|1 4 1";

#[test]
fn loading_rejects_bad_rows_with_their_line() {
    let header = "name,input,expected,origin,note\n";
    let error = load_error("unknown-column", "name,input,expected,origin,note,extra\n");
    has(&error, &["line 1: unknown column \"extra\""]);
    let error = load_error("missing-column", "name,input,expected,origin\n");
    has(&error, &["line 1: missing column \"note\""]);
    let error = load_error(
        "duplicate",
        &format!("{header}a,{GOOD_INPUT},1,hand,\na,{GOOD_INPUT},1,hand,\n"),
    );
    has(&error, &["line 3: duplicate name \"a\""]);
    let error = load_error(
        "bad-name",
        &format!("{header}Bad Name,{GOOD_INPUT},1,hand,\n"),
    );
    has(&error, &["line 2: name \"Bad Name\" is not kebab-case"]);
    let error = load_error(
        "bad-origin",
        &format!("{header}a,{GOOD_INPUT},1,somewhere,\n"),
    );
    has(&error, &["line 2", "unknown variant `somewhere`"]);
    let error = load_error(
        "bad-input",
        &format!("{header}ok,{GOOD_INPUT},1,hand,\nsmall,3 4|0 0 0,1,hand,\n"),
    );
    has(
        &error,
        &["line 3: input of \"small\": line 1: N must be in 4..=12, found 3"],
    );
}

#[test]
fn append_creates_the_file_skips_known_inputs_and_renames_clashes() {
    let dir = scratch("corpus-append");
    let path = dir.join("new_game2.csv");
    let row = |name: &str, input: &str| Row {
        name: name.to_string(),
        input: input.to_string(),
        expected: "1".to_string(),
        origin: Origin::Hand,
        note: "a, note with \"quotes\"".to_string(),
        signature: String::new(),
    };
    assert_eq!(
        corpus::append::<NewGame2>(&path, row("x", GOOD_INPUT)).unwrap(),
        Appended::Written("x".to_string())
    );
    // The same case, spelled with other spaces, is the same case.
    assert_eq!(
        corpus::append::<NewGame2>(&path, row("y", &GOOD_INPUT.replace(' ', "  "))).unwrap(),
        Appended::AlreadyPresent("x".to_string())
    );
    let other = GOOD_INPUT.replace("1 4 1", "2 4 3");
    assert_eq!(
        corpus::append::<NewGame2>(&path, row("x", &other)).unwrap(),
        Appended::Written("x-2".to_string())
    );
    let loaded = corpus::load::<NewGame2>(&path).unwrap();
    assert_eq!(loaded.len(), 2);
    assert_eq!(loaded[0].row, row("x", GOOD_INPUT));
    assert_eq!(loaded[1].line, 3);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().next(),
        Some("name,input,expected,origin,note,signature")
    );
}

#[test]
fn text_fields_round_trip() {
    let text = "4 4\n0 0 0 0\n1 1 1\n";
    assert_eq!(corpus::encode_text_with(text, '|'), "4 4|0 0 0 0|1 1 1");
    assert_eq!(corpus::decode_text("4 4|0 0 0 0|1 1 1"), text);
    assert!(lockstep_text::same_output("7 \n\n", "7"));
    assert!(!lockstep_text::same_output("7", "-7"));
}

#[test]
fn append_keeps_the_files_column_order_and_a_missing_final_newline() {
    let dir = scratch("corpus-append-order");
    let path = dir.join("new_game2.csv");
    // Columns in another order, and no newline after the last row.
    std::fs::write(
        &path,
        format!("note,origin,name,expected,input\nfirst,hand,a,1,{GOOD_INPUT}"),
    )
    .unwrap();
    let other = GOOD_INPUT.replace("1 4 1", "2 4 3");
    let row = Row {
        name: "b".to_string(),
        input: other.clone(),
        expected: "1".to_string(),
        origin: Origin::Hand,
        note: "second".to_string(),
        signature: "new_game2:a-signature".to_string(),
    };
    assert_eq!(
        corpus::append::<NewGame2>(&path, row.clone()).unwrap(),
        Appended::Written("b".to_string())
    );
    let loaded = corpus::load::<NewGame2>(&path).unwrap();
    assert_eq!(loaded.len(), 2);
    assert_eq!(loaded[1].row, row);
    assert_eq!(loaded[0].row.note, "first");
}

/// The per-row tests (`cargo test --test corpus_rows`, under libtest-mimic,
/// which owns the flags): one test per row, a wrong row failing by name with
/// its line, and a file that does not load one failing test, named after the
/// row a filter asks for when it asks for one of that file's.
#[test]
fn each_row_is_a_named_test_and_a_wrong_row_fails_by_name() {
    use lockstep_harness::row_tests::row_tests;
    let dir = scratch("row-tests");
    for entry in every_file() {
        std::fs::copy((entry.path)(&corpus_dir()), (entry.path)(&dir)).unwrap();
    }
    // A wrong expected answer on the first sample of new-game2 (-1 -> 5), and
    // a robots file that does not load.
    let path = dir.join("new_game2.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen(",-1,sample,", ",5,sample,", 1)).unwrap();
    std::fs::write(dir.join("robots.csv"), "name,input\nx,1\n").unwrap();

    let results: Vec<(String, Result<(), String>)> = row_tests(&dir, None)
        .into_iter()
        .map(|test| (test.name, (test.check)()))
        .collect();
    let result = |name: &str| {
        results
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no test {name}"))
            .1
            .clone()
    };
    let wrong = result("new_game2/sample-1-never-ends").unwrap_err();
    assert!(wrong.starts_with("line 2: "), "{wrong}");
    assert!(result("robots/(load)").is_err());
    assert_eq!(result("new_game2/sample-2-row-chain-ends-turn-1"), Ok(()));
    let rows: usize = every_file()
        .iter()
        .filter(|e| e.module != "robots")
        .map(|e| (e.names)(&dir).unwrap().len())
        .sum();
    let failed: Vec<&String> = results
        .iter()
        .filter(|(_, r)| r.is_err())
        .map(|(n, _)| n)
        .collect();
    assert_eq!(results.len(), rows + 1, "every row and the broken file");
    assert_eq!(failed.len(), 2, "{failed:?}");

    // A row of a file that does not load, asked for by name: the file's
    // failure runs under that name, not nothing.
    let asked = row_tests(&dir, Some("robots/official-case-1"));
    let broken = asked
        .into_iter()
        .find(|t| t.name.starts_with("robots/"))
        .expect("the broken file's test");
    assert_eq!(broken.name, "robots/official-case-1");
    assert!((broken.check)().is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every committed corpus file has every column, the signature's included,
/// so that a finding appended to it is a one-line diff: the file's bytes
/// before are the start of its bytes after.
#[test]
fn a_committed_corpus_file_takes_a_finding_as_one_new_line() {
    let header = corpus::COLUMNS.join(",");
    let mut wrong = Vec::new();
    for entry in every_file() {
        let path = (entry.path)(&corpus_dir());
        let text = std::fs::read_to_string(&path).unwrap();
        if text.lines().next() != Some(header.as_str()) {
            wrong.push(format!("{}: {:?}", path.display(), text.lines().next()));
        }
    }
    assert!(wrong.is_empty(), "headers other than {header:?}: {wrong:?}");
    let dir = scratch("corpus-one-line");
    let path = dir.join("new_game2.csv");
    let before = std::fs::read(corpus_dir().join("new_game2.csv")).unwrap();
    std::fs::write(&path, &before).unwrap();
    let row = Row {
        name: "one-more".to_string(),
        input: GOOD_INPUT.replace("1 4 1", "4 4 2"),
        expected: "1".to_string(),
        origin: Origin::Hand,
        note: "a note".to_string(),
        signature: "new_game2:stress-wrong-answer:line-1".to_string(),
    };
    assert_eq!(
        corpus::append::<NewGame2>(&path, row).unwrap(),
        Appended::Written("one-more".to_string())
    );
    let after = std::fs::read(&path).unwrap();
    assert!(after.starts_with(&before), "the append rewrote the file");
    let added = String::from_utf8_lossy(&after[before.len()..]).into_owned();
    assert_eq!(added.lines().count(), 1, "{added}");
    let _ = std::fs::remove_dir_all(&dir);
}
