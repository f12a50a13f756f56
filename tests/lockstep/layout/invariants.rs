//! The architecture invariants ARCHITECTURE.md states, each held here: which
//! layer may name which. The reading is lexical, as the cycle test's:
//! comments are dropped, a file's `#[cfg(test)]` tail and its unit-test files
//! (`tests.rs`, `tests/`) are left out (tests may reach anywhere), and `use`
//! trees are expanded.
//!
//! Every test reports every breach at once, and each asserts first that its
//! reading found the layer's real dependencies, so that none passes by
//! reading nothing.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files under `dir` (a file, or a folder read recursively),
/// without unit-test files.
fn files(dir: &str) -> Vec<PathBuf> {
    fn walk(path: &Path, out: &mut Vec<PathBuf>) {
        if path.is_file() {
            out.push(path.to_path_buf());
            return;
        }
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "tests") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs")
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join(dir), &mut out);
    out.sort();
    out
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

/// The paths a use tree names, each with `prefix` before it: `a::{b,
/// c::{d}}` is `a::b` and `a::c::d` (and `a`, `a::c` on the way).
fn expand(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{') {
        let inner = inner.strip_suffix('}').unwrap_or(inner);
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..i], prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&inner[start..], prefix, out);
        return;
    }
    let mut path = prefix.to_vec();
    let head = tree.split(" as ").next().unwrap_or("");
    let (names, group) = match head.find("::{") {
        Some(i) => (&head[..i], Some(&head[i + 2..])),
        None => (head, None),
    };
    path.extend(
        names
            .split("::")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty() && s != "self"),
    );
    if !path.is_empty() {
        out.push(path.clone());
    }
    if let Some(group) = group {
        expand(group, &path, out);
    }
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
        expand(&tree, &[], &mut out);
    }
    out
}

fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The harness modules (`crate::X`) the files of `layer` name, with where.
fn harness_uses(layer: &[&str]) -> Vec<(String, String)> {
    let mut uses = Vec::new();
    for dir in layer {
        for path in files(dir) {
            for named in paths_after(&code(&path), "crate::") {
                if let Some(first) = named.first() {
                    uses.push((shown(&path), first.clone()));
                }
            }
        }
    }
    uses
}

/// Checks that `layer` names no module of `banned`, reporting each breach.
fn names_none_of(layer: &[&str], banned: &[&str], why: &str, must_find: &str) {
    let uses = harness_uses(layer);
    assert!(
        uses.iter().any(|(_, m)| m == must_find),
        "{layer:?}: the reading found no use of crate::{must_find} (found {} uses)",
        uses.len()
    );
    let mut breaches: Vec<String> = uses
        .iter()
        .filter(|(_, m)| banned.contains(&m.as_str()))
        .map(|(file, m)| format!("{file}: crate::{m}"))
        .collect();
    breaches.dedup();
    assert!(
        breaches.is_empty(),
        "{why}; {} breaches:\n{}",
        breaches.len(),
        breaches.join("\n")
    );
}

/// Every module of the harness (`src/`), by its name under `crate::`.
fn harness_modules() -> Vec<String> {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    lib.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect()
}

#[test]
fn process_imports_nothing_from_the_harness() {
    let layer = ["src/process.rs", "src/process"];
    let uses = harness_uses(&layer);
    // Not vacuous: the files are read, and their paths to each other found.
    let read: Vec<PathBuf> = layer.iter().flat_map(|d| files(d)).collect();
    let inner: usize = read
        .iter()
        .map(|p| paths_after(&code(p), "super::").len())
        .sum();
    assert!(
        read.len() >= 5 && inner > 2,
        "{} files, {inner} super:: paths",
        read.len()
    );
    let breaches: Vec<String> = uses
        .iter()
        .filter(|(_, m)| m != "process")
        .map(|(file, m)| format!("{file}: crate::{m}"))
        .collect();
    // A child reaching past its parent would be a way round the rule.
    let mut around = Vec::new();
    for path in files("src/process") {
        if code(&path).contains("super::super") {
            around.push(shown(&path));
        }
    }
    assert!(
        breaches.is_empty() && around.is_empty(),
        "src/process* may name only crate::process (it runs programs for every layer above it):\n{}\n{}",
        breaches.join("\n"),
        around.join("\n")
    );
}

#[test]
fn the_judge_knows_no_puzzle_and_no_command() {
    names_none_of(
        &["src/judge"],
        &[
            "puzzle",
            "puzzles",
            "registry",
            "campaign",
            "stress",
            "cli",
            "corpus",
            "duel",
            "test_set",
            "enumerate",
            "generate",
            "bench",
            "replay",
            "triage",
        ],
        "src/judge/ judges a command on an input under limits, whatever asked",
        "process",
    );
}

#[test]
fn the_puzzle_adapters_know_no_driver() {
    names_none_of(
        &["src/puzzles"],
        &[
            "search", "campaign", "stress", "judge", "process", "cli", "registry", "corpus",
            "replay", "triage", "bench", "jobs", "report", "test_set", "lang",
        ],
        "src/puzzles/ says what a puzzle is to the harness; the drivers stand above it",
        "puzzle",
    );
}

#[test]
fn the_search_driver_knows_no_check() {
    names_none_of(
        &["src/search"],
        &[
            "campaign", "stress", "judge", "corpus", "cli", "registry", "duel", "test_set",
            "replay", "triage", "bench", "report",
        ],
        "src/search/ owns the loop; what a case is checked against is the Check's",
        "puzzle",
    );
}

#[test]
fn the_differential_runs_no_program() {
    names_none_of(
        &["src/campaign", "src/enumerate", "src/shrink", "src/corpus"],
        &["judge", "process", "stress", "lang", "test_set", "duel", "cli"],
        "the differential (campaign, enumeration, shrinking, corpus) runs solvers in process, never a program",
        "puzzle",
    );
}

#[test]
fn only_main_and_the_cli_name_the_cli() {
    let modules = harness_modules();
    assert!(modules.len() > 20, "src/lib.rs lists {modules:?}");
    let layer: Vec<String> = modules
        .iter()
        .filter(|m| *m != "cli")
        .flat_map(|m| [format!("src/{m}.rs"), format!("src/{m}")])
        .collect();
    let layer: Vec<&str> = layer.iter().map(String::as_str).collect();
    names_none_of(
        &layer,
        &["cli"],
        "the command line sits on top: no module below it names it",
        "puzzle",
    );
    let main = code(&root().join("src/main.rs"));
    assert!(
        main.contains("lockstep::cli::main"),
        "main.rs calls the CLI"
    );
}

#[test]
fn only_process_starts_processes() {
    let mut breaches = Vec::new();
    let mut read = 0;
    for path in files("src") {
        let name = shown(&path);
        if name == "src/process.rs" || name.starts_with("src/process/") {
            continue;
        }
        read += 1;
        let code = code(&path);
        for needle in [
            "Command::new",
            "process::Command",
            "libc::fork",
            "unistd::fork",
        ] {
            if code.contains(needle) {
                breaches.push(format!("{name}: {needle}"));
            }
        }
    }
    assert!(read > 80, "{read} files read");
    let process = code(&root().join("src/process.rs"));
    assert!(process.contains("Command::new"), "process.rs starts them");
    assert!(
        breaches.is_empty(),
        "programs start through src/process (own group, subreaper, limits):\n{}",
        breaches.join("\n")
    );
}

#[test]
fn exits_happen_in_one_place() {
    // main returns the CLI's code; only the signal watcher (which kills every
    // program first) and a fuzz target given a bad environment (libFuzzer
    // owns its command line) end the process themselves.
    let allowed = ["src/process/signals.rs", "src/fuzz_target.rs"];
    let mut breaches = Vec::new();
    let mut seen = 0;
    for path in files("src") {
        let name = shown(&path);
        let code = code(&path);
        if code.contains("process::exit(") {
            seen += 1;
            if !allowed.contains(&name.as_str()) {
                breaches.push(name);
            }
        }
    }
    assert!(seen >= 1, "the reading finds the allowed exits");
    assert!(
        breaches.is_empty(),
        "std::process::exit outside {allowed:?}: {breaches:?} (return an Exit: src/cli/exit.rs)"
    );
}

#[test]
fn core_has_no_dependencies() {
    let manifest =
        std::fs::read_to_string(root().join("core/Cargo.toml")).expect("core/Cargo.toml");
    let mut section = "";
    let mut deps = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line;
            continue;
        }
        if section.contains("dependencies") && !line.is_empty() && !line.starts_with('#') {
            deps.push(format!("{section} {line}"));
        }
    }
    assert!(
        manifest.contains("[dependencies]"),
        "core/Cargo.toml has the section"
    );
    assert!(deps.is_empty(), "core is std only: {deps:?}");
}

#[test]
fn the_reference_uses_cores_model_and_io_only() {
    // Core's solving code: its fast solvers, searches and the equilibrium
    // solver. The reference may use the model, the judge I/O, the trace
    // vocabulary and the shared evaluations (duel::evaluate, race's
    // evaluate_race: what both searches maximise, not a search).
    let solving = ["fast", "search", "mixed", "oracle", "simplex", "perft"];
    let mut breaches = Vec::new();
    let mut named = 0;
    for path in files("reference/src") {
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
        // Model::solve is the core's fast solver.
        for needle in [".solve()", "Model::solve"] {
            if code.contains(needle) {
                breaches.push(format!("{}: {needle}", shown(&path)));
            }
        }
    }
    assert!(named > 20, "{named} core paths read in reference/src");
    assert!(
        breaches.is_empty(),
        "reference/ shares core's model, not its logic (one bug must not hide on both sides):\n{}",
        breaches.join("\n")
    );
}

#[test]
fn every_fuzz_target_is_thin() {
    let targets = files("fuzz/fuzz_targets");
    assert!(targets.len() >= 8, "{} fuzz targets", targets.len());
    let mut fat = Vec::new();
    for path in &targets {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let lines = text.lines().count();
        if lines > 15 || !text.contains("lockstep::fuzz_target::fuzz_one::<") {
            fat.push(format!("{}: {lines} lines", shown(path)));
        }
    }
    assert!(
        fat.is_empty(),
        "a fuzz target is a few lines calling lockstep::fuzz_target::fuzz_one (the check is the harness's):\n{}",
        fat.join("\n")
    );
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
