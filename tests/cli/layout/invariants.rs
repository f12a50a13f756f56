//! The architecture invariants ARCHITECTURE.md states that the compiler does
//! not hold by itself. Which crate may use which is Cargo's dependency
//! graph: the first test holds the graph to the architecture (read by
//! `cargo metadata`), and rustc then refuses any path across a missing
//! edge. What is left is inside a crate, or is a rule about names the
//! compiler accepts either way: those are read lexically, as the cycle
//! test's: comments are dropped, a file's `#[cfg(test)]` tail and its
//! unit-test files (`tests.rs`, `tests/`) are left out, and `use` trees are
//! expanded. (Which functions may start a process or end one is clippy's
//! `disallowed-methods`, in clippy.toml.)
//!
//! Every test reports every breach at once, and each asserts first that its
//! reading found real dependencies, so that none passes by reading nothing.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files under `dir` (a file, or a folder read recursively),
/// without unit-test files.
fn files(dir: &str) -> Vec<PathBuf> {
    let path = root().join(dir);
    if path.is_file() {
        return vec![path];
    }
    let not_tests = |p: &Path| p.file_name().is_some_and(|n| n != "tests");
    super::walk(&path, "rs", &not_tests)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "tests.rs"))
        .collect()
}

/// A file's code: comments dropped, and nothing from its first
/// `#[cfg(test)]` on (the unit tests at a file's end).
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Every path `code` names after `prefix` (`crate::`), as its segments:
/// `crate::a::b` and `crate::{a::b, c}` give `[a, b]`, `[a]` and `[c]`.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices(prefix) {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        // The path, through a use tree's braces when it has one.
        let rest = &code[i + prefix.len()..];
        let mut depth = 0i32;
        let end = rest
            .char_indices()
            .find(|&(_, c)| match c {
                '{' => {
                    depth += 1;
                    false
                }
                '}' => {
                    depth -= 1;
                    depth < 0
                }
                c if depth > 0 => c == ';',
                c => !(c.is_alphanumeric() || c == '_' || c == ':' || c == '{'),
            })
            .map_or(rest.len(), |(j, _)| j);
        let tree: String = rest[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        super::cycles::expand(&tree, &[], &mut out);
    }
    out
}

fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Each crate of the workspace and the workspace crates it may depend on
/// (normal dependencies; tests may reach further), with why: the layers of
/// ARCHITECTURE.md's code map. A dependency added without an edge here
/// fails this test; one left out of the graph cannot be used at all. That
/// a declared dependency is used is cargo-machete's to hold (`.ci/run`),
/// so an edge here allows and does not demand.
const LAYERS: &[(&str, &[&str], &str)] = &[
    (
        "lockstep-core",
        &[],
        "std only: submittable to a judge, nothing shared with the reference",
    ),
    (
        "lockstep-reference",
        &["lockstep-core"],
        "core's model and judge I/O, never its solving",
    ),
    (
        "lockstep-stop",
        &[],
        "the stop state, below everything that reads or sets it",
    ),
    (
        "lockstep-text",
        &[],
        "judge text and words, knows nothing of searching",
    ),
    (
        "lockstep-process",
        &["lockstep-stop"],
        "runs programs for every layer above it",
    ),
    (
        "lockstep-search",
        &["lockstep-stop", "lockstep-text"],
        "the loop knows no check and runs no program",
    ),
    (
        "lockstep-judge",
        &[
            "lockstep-process",
            "lockstep-search",
            "lockstep-stop",
            "lockstep-text",
        ],
        "judges a command, knows no puzzle",
    ),
    (
        "lockstep-harness",
        &[
            "lockstep-core",
            "lockstep-reference",
            "lockstep-search",
            "lockstep-stop",
            "lockstep-text",
        ],
        "the differential runs no program, not even through the loop",
    ),
    (
        "lockstep-arena",
        &["lockstep-core", "lockstep-process", "lockstep-search"],
        "the duel's games are programs under the referee's rules, not the differential",
    ),
    (
        "lockstep-registry",
        &[
            "lockstep-core",
            "lockstep-harness",
            "lockstep-judge",
            "lockstep-process",
            "lockstep-reference",
            "lockstep-search",
            "lockstep-stop",
            "lockstep-text",
        ],
        "every puzzle behind one face, and a program against a puzzle's oracle",
    ),
    (
        "lockstep-planted",
        &["lockstep-core", "lockstep-harness", "lockstep-reference"],
        "wrong solvers for the harness's drivers to find",
    ),
    (
        "lockstep",
        &[
            "lockstep-arena",
            "lockstep-core",
            "lockstep-harness",
            "lockstep-judge",
            "lockstep-process",
            "lockstep-reference",
            "lockstep-registry",
            "lockstep-search",
            "lockstep-stop",
            "lockstep-text",
        ],
        "the command line on top; nothing depends on it",
    ),
];

/// Each workspace package's normal dependencies, workspace crates and
/// others apart, read by `cargo metadata`.
fn crate_graph() -> Vec<(String, Vec<String>, Vec<String>)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let members: Vec<String> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| p["name"].as_str().unwrap_or_default().to_string())
        .collect();
    metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|package| {
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            for dep in package["dependencies"].as_array().expect("dependencies") {
                if !dep["kind"].is_null() {
                    continue; // dev- and build-dependencies
                }
                let name = dep["name"].as_str().unwrap_or_default().to_string();
                if members.contains(&name) {
                    ours.push(name);
                } else {
                    theirs.push(name);
                }
            }
            ours.sort();
            let name = package["name"].as_str().unwrap_or_default().to_string();
            (name, ours, theirs)
        })
        .collect()
}

#[test]
fn the_crate_graph_is_the_architecture() {
    let graph = crate_graph();
    let mut problems = Vec::new();
    for (name, ours, theirs) in &graph {
        match LAYERS.iter().find(|(layer, _, _)| layer == name) {
            None => problems.push(format!(
                "{name}: a crate ARCHITECTURE.md (and LAYERS here) does not place"
            )),
            Some((_, allowed, why)) => {
                let beyond: Vec<&String> = ours
                    .iter()
                    .filter(|dep| !allowed.contains(&dep.as_str()))
                    .collect();
                if !beyond.is_empty() {
                    problems.push(format!(
                        "{name} depends on {beyond:?}, beyond its layer's {allowed:?} ({why})"
                    ));
                }
            }
        }
        if name == "lockstep-core" && !theirs.is_empty() {
            problems.push(format!(
                "lockstep-core is std only, but depends on {theirs:?}"
            ));
        }
    }
    for (layer, _, _) in LAYERS {
        if !graph.iter().any(|(name, _, _)| name == layer) {
            problems.push(format!("{layer}: no such crate in the workspace"));
        }
    }
    // Not vacuous: the reading found the whole workspace and its edges.
    assert!(graph.len() >= 10, "{} packages read", graph.len());
    assert!(
        graph.iter().map(|(_, ours, _)| ours.len()).sum::<usize>() >= 20,
        "the reading found the workspace's edges"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The paths of `prefix` (`crate::`, `lockstep_search::`) the files of
/// `dir` name, with where.
fn uses_of(dir: &str, prefix: &str, skip: &dyn Fn(&Path) -> bool) -> Vec<(String, Vec<String>)> {
    let mut uses = Vec::new();
    for path in files(dir) {
        if skip(&path) {
            continue;
        }
        for named in paths_after(&code(&path), prefix) {
            uses.push((shown(&path), named));
        }
    }
    uses
}

/// A puzzle's folder says what the puzzle is to the harness (its adapter,
/// generator, shrinker, levels, signature), and the drivers stand above it:
/// nothing there names a driver of the harness or the search loop, so a
/// puzzle is added without touching a driver. Its `bench.rs` is bench's
/// own lines for it, and names the bench.
#[test]
fn the_puzzle_adapters_know_no_driver() {
    let not_bench = |path: &Path| path.file_name().is_some_and(|n| n == "bench.rs");
    let dir = "crates/harness/src/puzzles";
    let drivers = [
        "campaign",
        "corpus",
        "replay",
        "triage",
        "bench",
        "row_tests",
        "coverage",
        "quickcheck_cases",
        "fuzz_target",
        "seeded",
        "enumerated",
    ];
    let ours = uses_of(dir, "crate::", &not_bench);
    assert!(
        ours.iter()
            .any(|(_, p)| p.first().is_some_and(|m| m == "puzzle")),
        "the reading found the adapters' uses of crate::puzzle ({} uses)",
        ours.len()
    );
    let mut breaches: Vec<String> = ours
        .iter()
        .filter(|(_, p)| p.first().is_some_and(|m| drivers.contains(&m.as_str())))
        .map(|(file, p)| format!("{file}: crate::{}", p.join("::")))
        .collect();
    // Of the search crate, the ground floor only: seeds, text, the shrink
    // budget, the stop flag (and of the harness, `generate`, a case from a
    // seed, is the floor above the seeds).
    let floor = ["seeds", "text", "shrinking", "stop"];
    breaches.extend(
        uses_of(dir, "lockstep_search::", &not_bench)
            .iter()
            .filter(|(_, p)| p.first().is_some_and(|m| !floor.contains(&m.as_str())))
            .map(|(file, p)| format!("{file}: lockstep_search::{}", p.join("::"))),
    );
    breaches.dedup();
    assert!(
        breaches.is_empty(),
        "the puzzle folders say what a puzzle is; the drivers stand above them:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn the_reference_uses_cores_model_and_io_only() {
    // Core's solving code: its fast solvers, searches and the equilibrium
    // solver. The reference may use the model, the judge I/O, the trace
    // vocabulary and the shared evaluations (duel::evaluate, race's
    // evaluate_race: what both searches maximise, not a search).
    // The robots solver's entry points with a move limit are solving too.
    let solving = [
        "fast",
        "search",
        "mixed",
        "oracle",
        "simplex",
        "perft",
        "solve_limited",
        "events_limited",
    ];
    let mut breaches = Vec::new();
    let mut named = 0;
    for path in files("crates/reference/src") {
        let code = code(&path);
        for segments in paths_after(&code, "lockstep_core::") {
            named += 1;
            if let Some(s) = segments.iter().find(|s| solving.contains(&s.as_str())) {
                breaches.push(format!(
                    "{}: lockstep_core::{} ({s})",
                    shown(&path),
                    segments.join("::")
                ));
            }
        }
        // Model::solve is the core's fast solver; solve_limited the robots
        // one with a move limit.
        for needle in [".solve()", "Model::solve", "robots::solve_limited"] {
            if code.contains(needle) {
                breaches.push(format!("{}: {needle}", shown(&path)));
            }
        }
    }
    assert!(
        named > 20,
        "{named} core paths read in crates/reference/src"
    );
    assert!(
        breaches.is_empty(),
        "reference/ shares core's model, not its logic (one bug must not hide on both sides):\n{}",
        breaches.join("\n")
    );
}

/// One target file serves every puzzle: the `[[bin]]` entries of
/// fuzz/Cargo.toml are the list's modules (and the selftest's `planted`), each
/// built from it, and it stays a few lines (the check is the harness's).
#[test]
fn every_fuzz_target_is_the_one_thin_file() {
    let targets = files("fuzz/fuzz_targets");
    assert_eq!(targets.len(), 1, "one target file: {targets:?}");
    let text = std::fs::read_to_string(&targets[0]).unwrap_or_default();
    assert!(
        text.lines().count() <= 15 && text.contains("fuzz_module(env!(\"CARGO_BIN_NAME\")"),
        "fuzz/fuzz_targets/puzzle.rs is a few lines calling lockstep_harness::fuzz_target::fuzz_module"
    );
    let manifest =
        std::fs::read_to_string(root().join("fuzz/Cargo.toml")).expect("fuzz/Cargo.toml");
    let mut bins: Vec<&str> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("name = \"")?.strip_suffix('"'))
        .filter(|n| !["lockstep-fuzz", "planted"].contains(n))
        .collect();
    bins.sort_unstable();
    let mut modules: Vec<&str> = lockstep_registry::all()
        .iter()
        .map(|p| p.module())
        .collect();
    modules.sort_unstable();
    assert_eq!(
        bins, modules,
        "fuzz/Cargo.toml's targets are the puzzles' modules"
    );
    for path in manifest.lines().filter_map(|l| l.strip_prefix("path = \"")) {
        assert!(
            path == "fuzz_targets/puzzle.rs\"" || path == "planted/planted.rs\"",
            "a target built from {path}"
        );
    }
}

/// The reading itself: a group's heads and the paths beneath them.
#[test]
fn use_groups_are_read_whole() {
    let paths = paths_after(
        "use crate::{a, b::{c, d::fast}, e as f};\nlet x = crate::g::h(1);",
        "crate::",
    );
    let firsts: Vec<&str> = paths
        .iter()
        .filter_map(|p| p.first())
        .map(String::as_str)
        .collect();
    for m in ["a", "b", "e", "g"] {
        assert!(firsts.contains(&m), "{m} in {firsts:?}");
    }
    let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(paths.contains(&path(&["g", "h"])), "{paths:?}");
    assert!(paths.contains(&path(&["b", "d", "fast"])), "{paths:?}");
}
