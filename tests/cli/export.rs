//! `lockstep corpus export`, end to end: the shipped corpus as a judge's test
//! set, in both layouts, with its manifest; and (tier 2) every planted wrong
//! solution, run as a program by `lockstep test` the way a judge runs a
//! submission, rejected by its puzzle's exported set, while the core and the
//! reference pass it.

use crate::support::{cli, exited, repo, scratch, BIN};
use std::path::{Path, PathBuf};

/// `lockstep corpus export corpus/MODULE.csv --out DIR --layout LAYOUT`.
fn export(module: &str, out: &Path, layout: &str) -> (String, String) {
    let out_run = cli("corpus")
        .arg("export")
        .arg(repo(&format!("corpus/{module}.csv")))
        .flag("--out", out.display())
        .flag("--layout", layout)
        .run();
    exited(&out_run, 0, format!("export of {module}: "))
}

/// The files under `dir` ending in `.extension`, relative to `dir`, sorted.
fn files(dir: &Path, extension: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for path in std::fs::read_dir(&at).unwrap().map(|e| e.unwrap().path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                let relative = path.strip_prefix(dir).unwrap().with_extension("");
                found.push(relative.display().to_string());
            }
        }
    }
    found.sort();
    found
}

#[test]
fn the_corpus_exports_as_a_kattis_package_and_a_plain_folder() {
    let dir = scratch("export");
    let kattis = dir.join("kattis");
    let (_, stderr) = export("new_game2", &kattis, "kattis");
    assert!(stderr.contains("tests written to"), "{stderr}");
    // Every input has its answer, samples apart from the rest.
    let inputs = files(&kattis, "in");
    assert_eq!(inputs, files(&kattis, "ans"));
    let samples: Vec<_> = inputs
        .iter()
        .filter(|f| f.starts_with("data/sample/"))
        .collect();
    assert_eq!(samples.len(), 5, "{inputs:?}");
    assert!(inputs
        .iter()
        .all(|f| f.starts_with("data/sample/sample-") == f.contains("/sample-")));
    // The manifest lists each test once, with what it was kept for.
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(kattis.join("manifest.json")).unwrap()).unwrap();
    let tests = manifest["tests"].as_array().unwrap();
    let listed: Vec<String> = tests
        .iter()
        .map(|t| {
            t["input"]
                .as_str()
                .unwrap()
                .trim_end_matches(".in")
                .to_string()
        })
        .collect();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(sorted, inputs);
    let limit = tests
        .iter()
        .find(|t| t["input"] == "data/secret/boundary-turn-1001-a.in")
        .expect("the turn-1001 boundary row is exported");
    assert_eq!(limit["origin"], "boundary");
    assert!(limit["kept_for"].as_str().unwrap().contains("turn 1001"));
    let answer = std::fs::read_to_string(kattis.join("data/secret/boundary-turn-1001-a.ans"));
    assert_eq!(answer.unwrap(), "-1\n");
    // A plain folder is a test set `lockstep test` passes the core on.
    let plain = dir.join("plain");
    export("new_game2", &plain, "plain");
    assert_eq!(files(&plain, "in").len(), inputs.len());
    let run = cli("test")
        .arg(plain.display().to_string())
        .flag("--cmd", format!("{BIN} solve new-game2"))
        .run();
    exited(&run, 0, "the core on the exported set: ");
    // An export never writes over a folder that holds something.
    let again = cli("corpus")
        .arg("export")
        .arg(repo("corpus/new_game2.csv"))
        .flag("--out", plain.display())
        .run();
    let (_, stderr) = exited(&again, 2, "export over a full folder: ");
    assert!(stderr.contains("not an empty folder"), "{stderr}");
    assert_eq!(files(&plain, "in").len(), inputs.len());
}

/// The planted wrong solutions as a program (`examples/wrong.rs`), which
/// `cargo test` builds beside the binary.
fn wrong_program() -> PathBuf {
    let path = Path::new(BIN).parent().unwrap().join("examples/wrong");
    assert!(
        path.exists(),
        "{} is missing: cargo build --example wrong",
        path.display()
    );
    path
}

mod hunt {
    use super::*;

    /// Every planted bug (the catalogue's of every puzzle and the contestant
    /// bugs of the five puzzles of the statements, 45), run as a program
    /// against its puzzle's exported set (the original statement's limits),
    /// fails a test; the core and the reference pass every one.
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn every_wrong_solution_fails_the_exported_set() {
        let wrong = wrong_program();
        let listed = std::process::Command::new(&wrong)
            .arg("--list")
            .output()
            .unwrap();
        let names = String::from_utf8(listed.stdout).unwrap();
        let dir = scratch("export-wrong");
        let mut problems = Vec::new();
        let mut tried = 0;
        for (module, puzzle) in [
            ("robots", "robots"),
            ("new_game2", "new-game2"),
            ("footholds", "footholds"),
            ("checkers", "checkers"),
            ("duel", "duel"),
            ("checkers_perft", "checkers-perft"),
            ("duel_search", "duel-search"),
            ("matrix_game", "matrix-game"),
        ] {
            let set = dir.join(module);
            export(module, &set, "plain");
            let test = |cmd: String| {
                // A CPU limit far above any solve here (the reference's
                // slowest duel-search test takes about 1.3 s), so that a busy
                // machine cannot turn a pass into a TLE.
                cli("test")
                    .arg(set.display().to_string())
                    .flag("--cmd", cmd)
                    .flag("--timeout-ms", 30_000)
                    .run()
                    .status
                    .code()
            };
            for side in ["", " --reference"] {
                if test(format!("{BIN} solve {puzzle}{side}")) != Some(0) {
                    problems.push(format!("{module}: `solve{side}` fails its own set"));
                }
            }
            let bugs: Vec<&str> = names
                .lines()
                .filter_map(|l| l.split('\t').next())
                .filter(|n| n.starts_with(&format!("{module}/")))
                .collect();
            // At least five wrong solutions for each puzzle of the statements.
            let statement = ["robots", "new_game2", "footholds", "checkers", "duel"];
            assert!(
                bugs.len() >= 5 || !statement.contains(&module),
                "{module}: {bugs:?}"
            );
            for bug in bugs {
                tried += 1;
                if test(format!("{} {bug}", wrong.display())) != Some(1) {
                    problems.push(format!("{bug}: passes the exported set of {module}"));
                }
            }
        }
        assert_eq!(tried, 45, "the wrong solutions tried");
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
