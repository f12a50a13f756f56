//! The repository's layout per puzzle: every registered puzzle has the files
//! ARCHITECTURE.md's "Adding a puzzle" names, under its one module name.

use lockstep::registry;
use std::path::Path;

#[test]
fn every_registered_puzzle_has_its_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_default();
    let fuzz_manifest = read("fuzz/Cargo.toml");
    let rule_index = read("docs/rules/README.md");
    let (core_lib, reference_lib, adapters, tests_main) = (
        read("core/src/lib.rs"),
        read("reference/src/lib.rs"),
        read("src/puzzles/mod.rs"),
        read("tests/lockstep/main.rs"),
    );
    let mut missing = Vec::new();
    for entry in registry::all() {
        let m = entry.module();
        let core = vec![format!("core/src/{m}/mod.rs"), format!("core/src/{m}.rs")];
        let adapter = vec![
            format!("src/puzzles/{m}.rs"),
            format!("src/puzzles/{m}/mod.rs"),
        ];
        let one_of = [
            core,
            vec![format!("reference/src/{m}.rs")],
            adapter,
            vec![format!("fuzz/fuzz_targets/{m}.rs")],
            vec![format!("corpus/{m}.csv")],
            vec![format!("tests/lockstep/{m}.rs")],
            vec![format!("docs/rules/{m}.md")],
        ];
        for paths in one_of {
            if !paths.iter().any(|p| root.join(p).is_file()) {
                missing.push(format!("{m}: {}", paths.join(" or ")));
            }
        }
        let lines = [
            (
                &fuzz_manifest,
                format!("path = \"fuzz_targets/{m}.rs\""),
                "fuzz/Cargo.toml",
            ),
            (&rule_index, format!("({m}.md)"), "docs/rules/README.md"),
            (
                &reference_lib,
                format!("pub mod {m};"),
                "reference/src/lib.rs",
            ),
            (&adapters, format!("pub mod {m};"), "src/puzzles/mod.rs"),
            // Without it the puzzle's test file is never compiled.
            (&tests_main, format!("mod {m};"), "tests/lockstep/main.rs"),
        ];
        for (text, line, file) in lines {
            if !text.contains(&line) {
                missing.push(format!("{m}: {file} lacks {line}"));
            }
        }
        if !core_lib.contains(&format!("pub mod {m};")) {
            missing.push(format!("{m}: core/src/lib.rs lacks pub mod {m};"));
        }
    }
    // Not vacuous: the six puzzles of this repository at least.
    assert!(
        registry::all().len() >= 6,
        "{} puzzles",
        registry::all().len()
    );
    assert!(missing.is_empty(), "missing:\n{}", missing.join("\n"));
}
