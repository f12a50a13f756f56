//! The corpus file under abuse: concurrent appenders, appenders killed with
//! SIGKILL, read-only and missing corpora (the finding goes to a fallback
//! file), and empty files. A finding must survive every one of them.

use super::*;
use lockstep_core::Model;

/// `count` different new_game2 rows, named `name-0`, `name-1`, ..., as a
/// corpus file, and their inputs.
fn new_game2_rows(seed: u64, count: usize, name: &str) -> (String, Vec<String>) {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut cases = Vec::new();
    let mut index = 0;
    while cases.len() < count {
        let case = campaign::generate_case::<NewGame2>(seed, 0, index, &mut buf).unwrap();
        index += 1;
        if !cases.contains(&case) {
            cases.push(case);
        }
    }
    let mut text = corpus::COLUMNS.join(",") + "\n";
    let mut inputs = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let input = corpus::encode_for::<NewGame2>(&case.write_input());
        let answer = <NewGame2 as Puzzle>::Case::write_answer(&case.solve().answer);
        text.push_str(&corpus::row_to_csv(&Row {
            name: format!("{name}-{i}"),
            input: input.clone(),
            expected: corpus::encode_for::<NewGame2>(&answer),
            origin: corpus::Origin::Hand,
            note: format!("seed {seed}"),
            signature: String::new(),
        }));
        inputs.push(input);
    }
    (text, inputs)
}

fn import(file: &Path, dir: &Path) -> Command {
    let mut command = crate::support::bin();
    command
        .args(["import", "new-game2"])
        .arg(file)
        .arg("--corpus")
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// 8 processes append 20 rows each at once, under the same 20 names: every row
/// lands exactly once, renamed apart, and the file loads.
#[test]
fn concurrent_appends_lose_and_duplicate_nothing() {
    let dir = scratch("concurrent-appends");
    let corpus_dir = made(dir.join("corpus"));
    let mut all_inputs = Vec::new();
    let mut children = Vec::new();
    for process in 0..8 {
        let (text, inputs) = new_game2_rows(1000 + process, 20, "clash");
        let file = dir.join(format!("rows-{process}.csv"));
        fs::write(&file, text).unwrap();
        all_inputs.extend(inputs);
        children.push(import(&file, &corpus_dir).spawn().unwrap());
    }
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    all_inputs.sort();
    all_inputs.dedup();
    let loaded = corpus::load::<NewGame2>(&corpus::path_for::<NewGame2>(&corpus_dir)).unwrap();
    let mut inputs: Vec<String> = loaded.iter().map(|l| l.row.input.clone()).collect();
    inputs.sort();
    println!(
        "{} rows expected, {} in the file",
        all_inputs.len(),
        inputs.len()
    );
    assert_eq!(inputs, all_inputs, "rows lost or duplicated");
    // The loader already refuses a repeated name; the suffixes are all there.
    for name in ["clash-0", "clash-0-2", "clash-19-8"] {
        assert!(loaded.iter().any(|l| l.row.name == name), "no row {name}");
    }
    // The same rows again, from every process at once: nothing changes.
    let before = fs::read(corpus::path_for::<NewGame2>(&corpus_dir)).unwrap();
    let children: Vec<_> = (0..8)
        .map(|process| {
            import(&dir.join(format!("rows-{process}.csv")), &corpus_dir)
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        assert!(child.wait_with_output().unwrap().status.success());
    }
    assert_eq!(
        fs::read(corpus::path_for::<NewGame2>(&corpus_dir)).unwrap(),
        before
    );
}

/// An appender killed with SIGKILL at any moment leaves a file that loads, with
/// every row it holds whole.
#[test]
fn an_appender_killed_at_any_moment_leaves_a_loadable_file() {
    let dir = scratch("killed-appends");
    let corpus_dir = made(dir.join("corpus"));
    let path = corpus::path_for::<NewGame2>(&corpus_dir);
    let mut previous = 0;
    for round in 0..12u64 {
        let (text, _) = new_game2_rows(2000 + round, 200, "killed");
        let file = dir.join(format!("rows-{round}.csv"));
        fs::write(&file, text).unwrap();
        let mut child = import(&file, &corpus_dir).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(5 + 9 * round));
        child.kill().unwrap();
        child.wait().unwrap();
        let rows = if path.exists() {
            corpus::load::<NewGame2>(&path)
                .unwrap_or_else(|e| panic!("round {round}: the file does not load: {e:#}"))
                .len()
        } else {
            0
        };
        assert!(
            rows >= previous,
            "round {round}: rows went from {previous} to {rows}"
        );
        previous = rows;
    }
    println!("{previous} rows after 12 killed appenders");
}

/// Where the corpus cannot take the row, the finding goes to a fallback file
/// that holds it whole, and the corpus file is left as it was.
#[test]
fn a_row_the_corpus_cannot_take_goes_to_a_fallback_file() {
    let (rows_csv, _) = new_game2_rows(3000, 2, "fallback");
    let dir = scratch("fallback");
    fs::write(dir.join("rows.csv"), &rows_csv).unwrap();
    let rows = corpus::load::<NewGame2>(&dir.join("rows.csv")).unwrap();
    let row = rows[1].row.clone();

    let read_only_file = read_only_corpus(&dir.join("read-only-file"));

    let read_only_dir = made(dir.join("read-only-dir"));
    fs::set_permissions(&read_only_dir, fs::Permissions::from_mode(0o555)).unwrap();

    let broken = made(dir.join("broken"));
    fs::write(corpus::path_for::<NewGame2>(&broken), "name,input\n").unwrap();

    for (corpus_dir, why) in [
        (read_only_file.clone(), "read-only"),
        (read_only_dir.clone(), "read-only"),
        (dir.join("missing"), "does not exist"),
        (broken.clone(), "missing column"),
    ] {
        let before = fs::read(corpus::path_for::<NewGame2>(&corpus_dir)).ok();
        let recorded = corpus::record::<NewGame2>(&corpus_dir, row.clone());
        let Recorded::Unsaved {
            error, fallback, ..
        } = &recorded
        else {
            panic!("{}: recorded as {recorded:?}", corpus_dir.display());
        };
        assert!(error.contains(why), "{error}");
        let saved = fallback.as_ref().expect("the fallback file is written");
        let kept = corpus::load::<NewGame2>(saved).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].row, row);
        assert!(recorded.to_string().contains(&saved.display().to_string()));
        assert_eq!(
            fs::read(corpus::path_for::<NewGame2>(&corpus_dir)).ok(),
            before,
            "the corpus file changed"
        );
        // Once the corpus can take it, `lockstep import` moves the row in.
        let target = scratch("fallback-import");
        let out = lockstep(
            &[
                "import",
                "new-game2",
                saved.to_str().unwrap(),
                "--corpus",
                target.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let imported = corpus::load::<NewGame2>(&corpus::path_for::<NewGame2>(&target)).unwrap();
        assert_eq!(imported[0].row, row);
        let _ = fs::remove_file(saved);
    }
    fs::set_permissions(&read_only_dir, fs::Permissions::from_mode(0o755)).unwrap();
}

/// A 0-byte file is an empty corpus, and takes a header on its first append.
#[test]
fn an_empty_file_takes_a_header_on_its_first_append() {
    let (text, _) = new_game2_rows(4000, 1, "first");
    let dir = scratch("empty-file");
    fs::write(dir.join("rows.csv"), &text).unwrap();
    let row = corpus::load::<NewGame2>(&dir.join("rows.csv")).unwrap()[0]
        .row
        .clone();
    let path = corpus::path_for::<NewGame2>(&dir);
    fs::write(&path, "").unwrap();
    assert!(corpus::load::<NewGame2>(&path).unwrap().is_empty());
    assert_eq!(
        corpus::append::<NewGame2>(&path, row.clone()).unwrap(),
        Appended::Written("first-0".to_string())
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
}

/// The corpus location is explicit: a `--corpus` that does not exist is an
/// error naming it (never a new directory), and replay names a missing file.
#[test]
fn a_missing_corpus_is_an_error_naming_it() {
    let dir = scratch("missing-corpus");
    let typo = dir.join("corpsu");
    let typo_arg = typo.to_str().unwrap();
    for args in [
        &["replay", "--corpus", typo_arg][..],
        &["fuzz", "new-game2", "--cases", "10", "--corpus", typo_arg],
        &["triage", "--check", "--corpus", typo_arg],
    ] {
        fails_with(&lockstep(args, ""), "corpsu: no such directory");
        assert!(!typo.exists(), "{args:?} created the directory");
    }
    let out = lockstep(&["replay", "robots", "--corpus", dir.to_str().unwrap()], "");
    fails_with(&out, "robots.csv");
}

/// An empty (0-byte) corpus file is a replay error naming it, not "0 rows":
/// every corpus file has its header, so an empty one was cut short (an
/// append still takes it, as it takes a new file).
#[test]
fn an_empty_corpus_file_does_not_replay_as_no_rows() {
    let dir = scratch("empty-corpus");
    fs::write(dir.join("robots.csv"), "").unwrap();
    let out = lockstep(&["replay", "robots", "--corpus", dir.to_str().unwrap()], "");
    let both = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2), "{both}");
    has(&both, &["robots.csv is empty (0 bytes)"]);
    // A header alone is a corpus of no rows, and replays as one.
    let header = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/robots.csv"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    fs::write(dir.join("robots.csv"), format!("{header}\n")).unwrap();
    let out = lockstep(&["replay", "robots", "--corpus", dir.to_str().unwrap()], "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
