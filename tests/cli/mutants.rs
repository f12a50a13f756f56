//! `lockstep test DIR --cmd MODEL --mutants`: a test set scored by mutants
//! of the model. Tier 1 runs a stand-in mutator with five fixed mutants
//! (tests/fixtures/setter/fake-mutate.sh), so that the kill table, the
//! survivors, the compile failures, a time-limit kill and the score are
//! held exactly; tier 2 runs universalmutator itself, which `.ci/run`
//! installs.

use crate::support::{bin, has, repo, scratch, text};
use std::path::Path;
use std::process::Output;

/// A test set in `dir`: each (name, input, answer).
fn tests_in(dir: &Path, tests: &[(&str, &str, &str)]) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, input, answer) in tests {
        std::fs::write(dir.join(format!("{name}.in")), input).unwrap();
        std::fs::write(dir.join(format!("{name}.ans")), answer).unwrap();
    }
}

const WEAK: [(&str, &str, &str); 2] = [("1", "1 2\n", "3\n"), ("2", "-5 2\n", "3\n")];
const MORE: [(&str, &str, &str); 2] = [("3", "-1 0\n", "1\n"), ("4", "0 0\n", "0\n")];

/// `lockstep test DIR --cmd MODEL --mutants ARGS` with `mutator` as the
/// mutator (None: `LOCKSTEP_MUTATOR` as the test has it, else `mutate` on
/// the PATH).
fn scored(dir: &Path, model: &str, mutator: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = bin();
    cmd.arg("test")
        .arg(dir)
        .args(["--cmd", model, "--mutants", "--timeout-ms", "1000"])
        .args(args);
    if let Some(m) = mutator {
        cmd.env("LOCKSTEP_MUTATOR", m);
    }
    cmd.output().expect("lockstep runs")
}

fn fake() -> String {
    repo("tests/fixtures/setter/fake-mutate.sh")
}

fn model() -> String {
    repo("tests/fixtures/setter/model.py")
}

/// The kill table of the five fixed mutants over a weak set and over the
/// same set with two more tests: which test kills which mutant, the first
/// killer's verdict (a loop is killed by TLE), the compile failure left out
/// of the score, the survivors with their change, exit 1 while one survives.
#[test]
fn a_test_set_is_scored_by_the_mutants_it_kills() {
    let dir = scratch("weak");
    tests_in(&dir, &WEAK);
    let out = scored(&dir, &model(), Some(&fake()), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one document");
    assert_eq!(doc["lockstep"], "test-mutants");
    let fates: Vec<(u64, String, String)> = doc["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let first = m["first"].as_str().unwrap_or("").to_string();
            let fate = format!(
                "{} {}",
                m["fate"].as_str().unwrap(),
                m["verdict"].as_str().unwrap_or("")
            );
            (
                m["number"].as_u64().unwrap(),
                fate.trim().to_string(),
                first,
            )
        })
        .collect();
    let expect = |n: u64, fate: &str, first: &str| (n, fate.to_string(), first.to_string());
    assert_eq!(
        fates,
        [
            expect(0, "survived", ""),
            expect(1, "killed WA", "1"),
            expect(2, "not_compiled", ""),
            expect(3, "killed TLE", "1"),
            expect(4, "survived", ""),
        ]
    );
    assert_eq!(
        (&doc["killed"], &doc["survived"], &doc["not_compiled"]),
        (&2.into(), &2.into(), &1.into())
    );
    assert_eq!(doc["score"], 0.5);
    let kills: Vec<(&str, Vec<u64>)> = doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let kills = t["kills"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_u64().unwrap());
            (t["name"].as_str().unwrap(), kills.collect())
        })
        .collect();
    assert_eq!(kills, [("1", vec![1, 3]), ("2", vec![1])]);
    assert_eq!(doc["mutants"][0]["line"], 4);
    assert_eq!(doc["mutants"][0]["was"], "if s < 0:");
    assert_eq!(doc["mutants"][0]["now"], "if s < -1:");

    // Two more tests: the test of a sum of -1 kills the mutant that
    // negates only below -1; the one that changes nothing survives.
    tests_in(&dir, &MORE);
    let out = scored(&dir, &model(), Some(&fake()), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    has(
        &text(&out.stdout),
        &[
            "  3  kills    1  #0\n",
            "  4  kills    0\n",
            "  #3    line 4    killed by 1 (TLE), 1 in all\n",
            "  #4    line 6: `print(s)` -> `print(s)  # the same program`\n",
            "5 mutants of the 5 the mutator wrote: 3 killed, 1 survived, 1 did not compile; score 75.0% (3 of 4)",
        ],
    );
}

/// The run stops before the model runs when the mutator is missing (naming
/// the install command) or --cmd is no source, and before any mutant when
/// the model fails a test: exit 2 each time, saying why.
#[test]
fn a_mutant_run_says_why_it_cannot_score() {
    let dir = scratch("refused");
    tests_in(&dir, &WEAK);
    let out = scored(&dir, &model(), Some("/nonexistent/mutate"), &[]);
    assert_eq!(out.status.code(), Some(2));
    has(&text(&out.stderr), &["pip install universalmutator"]);
    assert!(!text(&out.stdout).contains("OK"), "the model did not run");

    let out = scored(&dir, "cat", Some(&fake()), &[]);
    assert_eq!(out.status.code(), Some(2));
    has(&text(&out.stderr), &["--cmd must name a source file"]);

    let out = scored(&dir, &model(), Some(&fake()), &["--brute", "cat"]);
    assert_eq!(out.status.code(), Some(2), "--brute needs --gen");

    tests_in(&dir, &[("5", "2 2\n", "5\n")]);
    let out = scored(&dir, &model(), Some(&fake()), &[]);
    assert_eq!(out.status.code(), Some(2));
    has(&text(&out.stderr), &["the model fails 1 of the tests (5)"]);
}

/// With a generator each survivor is hunted against the oracle (the model):
/// the sign-test mutant fails a generated sum of -1, shrunk within the
/// validator's limits and written as `mutant-0`, the oracle's answer beside
/// it; the mutant that changes nothing is probably equivalent after the
/// cases asked; the score after counts the new test and leaves that one out;
/// --minimize names the fewest tests; exit 0 once no survivor is left
/// unexplained.
#[test]
fn survivors_become_tests_and_the_equivalent_leave_the_score() {
    let dir = scratch("hunt");
    tests_in(&dir, &WEAK);
    let gen = format!("python3 {}", repo("tests/fixtures/setter/pair-gen.py"));
    let valid = format!("python3 {}", repo("tests/fixtures/setter/pair-valid.py"));
    let out = scored(
        &dir,
        &model(),
        Some(&fake()),
        &[
            "--gen",
            &gen,
            "--validator",
            &valid,
            "--survivor-cases",
            "10",
            "--minimize",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one document");
    let hunt = doc["hunt"].as_array().expect("the hunt");
    assert_eq!(hunt.len(), 2, "{doc}");
    assert_eq!(
        (
            &hunt[0]["number"],
            &hunt[0]["hunt"],
            &hunt[0]["test"],
            &hunt[0]["verdict"]
        ),
        (
            &0.into(),
            &"new_test".into(),
            &"mutant-0".into(),
            &"WA".into()
        )
    );
    assert_eq!(
        (&hunt[1]["number"], &hunt[1]["hunt"], &hunt[1]["cases"]),
        (&4.into(), &"probably_equivalent".into(), &10.into())
    );
    assert_eq!(
        (&doc["score"], &doc["score_after"]),
        (&0.5.into(), &1.0.into())
    );
    assert_eq!(doc["minimal"], serde_json::json!(["1", "mutant-0"]));
    let input = std::fs::read_to_string(dir.join("mutant-0.in")).unwrap();
    let sum: i64 = input
        .split_whitespace()
        .map(|w| w.parse::<i64>().unwrap())
        .sum();
    assert_eq!(sum, -1, "{input:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("mutant-0.ans")).unwrap(),
        "1\n"
    );
    // The new test is a test like the others: the model passes it, and the
    // mutant it was written for fails it.
    let out = scored(&dir, &model(), Some(&fake()), &["--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one document");
    assert_eq!(doc["mutants"][0]["first"], "mutant-0", "{doc}");
}

/// A checker that fails itself on a mutant's output leaves that mutant not
/// judged (counted with those not run, out of the score), not "did not
/// compile".
#[test]
fn a_tool_that_fails_on_a_mutant_leaves_it_not_judged() {
    let dir = scratch("not-judged");
    tests_in(&dir, &WEAK);
    let checker = format!("python3 {}", repo("tests/fixtures/setter/seven-fails.py"));
    let out = scored(
        &dir,
        &model(),
        Some(&fake()),
        &["--checker", &checker, "--format", "json"],
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one document");
    // Mutant 1 (a - b) prints 7 on the second test, where the checker fails.
    assert_eq!(doc["mutants"][1]["fate"], "not_judged", "{doc}");
    assert_eq!(
        (&doc["not_compiled"], &doc["not_run"]),
        (&1.into(), &1.into()),
        "{doc}"
    );
}

mod hunt {
    use super::*;

    /// universalmutator itself over the same model: the weak set lets a
    /// sign-test mutant through that the stronger set kills, and every
    /// mutant the weak set kills the stronger one kills too.
    #[test]
    #[ignore = "tier 2: needs universalmutator (pip install universalmutator), which .ci/run installs"]
    fn universalmutator_scores_a_stronger_set_higher() {
        let run = |name: &str, tests: &[(&str, &str, &str)]| {
            let dir = scratch(name);
            tests_in(&dir, tests);
            let out = scored(&dir, &model(), None, &["--format", "json"]);
            assert!(
                out.status.code().is_some_and(|c| c <= 1),
                "{}",
                text(&out.stderr)
            );
            serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("one document")
        };
        let weak = run("um-weak", &WEAK);
        let strong = run("um-strong", &[WEAK[0], WEAK[1], MORE[0], MORE[1]]);
        assert!(weak["generated"].as_u64() > Some(10), "{weak}");
        assert!(
            strong["score"].as_f64() > weak["score"].as_f64(),
            "{weak}\n{strong}"
        );
        let killed = |doc: &serde_json::Value| -> Vec<u64> {
            let mutants = doc["mutants"].as_array().unwrap().iter();
            mutants
                .filter(|m| m["fate"] == "killed")
                .map(|m| m["number"].as_u64().unwrap())
                .collect()
        };
        let (weak_kills, strong_kills) = (killed(&weak), killed(&strong));
        assert!(weak_kills.iter().all(|k| strong_kills.contains(k)));
        let sign = strong["mutants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["now"] == "if s < -1:");
        assert_eq!(sign.map(|m| &m["first"]), Some(&"3".into()), "{strong}");
    }
}
