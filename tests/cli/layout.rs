//! The repository's house rules, held by tests rather than by notes:
//!
//! - the guide's "Add a puzzle" page (docs/guide/src/tasks/add-puzzle.md)
//!   names every file of a puzzle, and every puzzle has every file it names;
//! - one name, one meaning: no public function is called `run`, and no two
//!   public types of the harness share a name;
//! - every file, function, test and decision a rule page's rule index names
//!   exists;
//! - no import cycle between files (`cycles.rs`), and the architecture
//!   invariants ARCHITECTURE.md states (`invariants.rs`);
//! - the docs held to the binary and to themselves: every flag of every
//!   command's help in the guide's reference, every relative link resolved
//!   (`guide.rs`).

mod cycles;
mod guide;
mod invariants;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Every puzzle of the list: its type and its module.
fn listed_puzzles() -> Vec<(&'static str, &'static str)> {
    macro_rules! listed {
        ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {
            vec![$((stringify!($ty), stringify!($m))),*]
        };
    }
    lockstep_harness::for_each_puzzle!(listed)
}

/// The rows of the first markdown table after `heading` in `text`: each
/// row's cells.
fn table_after(text: &str, heading: &str) -> Vec<Vec<String>> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?}"));
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(cells)
        .collect()
}

/// The files and folders of the tree (tracked or not, ignored ones left out).
fn tree_files() -> Vec<String> {
    let out = std::process::Command::new("git")
        .args(["ls-files", "--cached", "--others", "--exclude-standard"])
        .current_dir(root())
        .output()
        .expect("git runs (the tests run in a clone)");
    // A failed or empty listing would make every check over it pass on
    // nothing.
    assert!(out.status.success(), "git ls-files failed");
    let files: Vec<String> = String::from_utf8(out.stdout)
        .expect("file names are UTF-8")
        .lines()
        .map(str::to_string)
        .filter(|f| root().join(f).is_file())
        .collect();
    assert!(
        files.iter().any(|f| f == "Cargo.toml"),
        "git ls-files lists the tree"
    );
    files
}

/// Whether `file` belongs to puzzle `module`: it is in a folder of the
/// module's name, or named after it.
fn belongs_to(file: &str, module: &str) -> bool {
    let parts: Vec<&str> = file.split('/').collect();
    let (folders, name) = parts.split_at(parts.len() - 1);
    folders.contains(&module) || name[0].split('.').next() == Some(module)
}

/// Files named after a puzzle that are not its files: the end-to-end
/// tests' fixtures, and the duel's own commands (the arena's).
const NOT_A_PUZZLES_FILE: [&str; 3] = [
    "tests/fixtures/",
    "src/cli/duel.rs",
    "docs/guide/src/tasks/duel.md",
];

/// The guide's "Add a puzzle" page held to the tree, both ways: every file
/// and line it names exists for every puzzle of the list, and every file
/// that belongs to a puzzle is one it names. A maintainer adding a puzzle
/// from the page alone gets every file the tests and the tools need.
#[test]
fn the_add_a_puzzle_page_lists_every_file_of_a_puzzle() {
    let page = read(&root().join("docs/guide/src/tasks/add-puzzle.md"));
    let new_files = table_after(&page, "## New files");
    let lines = table_after(&page, "## One line in existing files");
    assert!(
        new_files.len() >= 8 && lines.len() >= 7,
        "the page's tables read"
    );
    let puzzles = listed_puzzles();
    assert!(puzzles.len() >= 8, "{} puzzles", puzzles.len());
    let tree = tree_files();
    let mut problems = Vec::new();
    for &(ty, m) in &puzzles {
        let named = |span: &str| span.replace("foo", m).replace("Foo", ty);
        let mut covered: Vec<String> = Vec::new();
        for row in &new_files {
            let choices: Vec<String> = code_spans(&row[0])
                .into_iter()
                .filter(|s| s.contains("foo"))
                .map(named)
                .collect();
            covered.extend(choices.iter().cloned());
            let optional = row
                .get(1)
                .is_some_and(|what| what.starts_with("(optional)"));
            let present = choices.iter().any(|c| {
                let path = root().join(c.trim_end_matches('/'));
                if c.ends_with('/') {
                    path.is_dir()
                } else {
                    path.is_file()
                }
            });
            if !present && !optional {
                problems.push(format!("{m}: none of {choices:?}"));
            }
        }
        for row in &lines {
            let file = code_spans(&row[0])
                .first()
                .map(|f| f.to_string())
                .unwrap_or_default();
            let text = read(&root().join(&file));
            for span in code_spans(&row[1])
                .into_iter()
                .filter(|s| s.contains("foo") || s.contains("Foo"))
            {
                // The list entry's name and flags differ by puzzle: its
                // start is checked.
                let head = span.split_once('"').map_or(span, |(head, _)| head);
                let line = named(head.strip_suffix("],").unwrap_or(head));
                if text.is_empty() || !text.contains(&line) {
                    problems.push(format!("{m}: {file} lacks {line:?}"));
                }
            }
        }
        for file in tree.iter().filter(|f| belongs_to(f, m)) {
            let listed = covered.iter().any(|c| {
                if c.ends_with('/') {
                    file.starts_with(c.as_str())
                } else {
                    file == c
                }
            });
            if !listed && !NOT_A_PUZZLES_FILE.iter().any(|n| file.starts_with(n)) {
                problems.push(format!(
                    "{m}: {file} is a file of the puzzle the page does not name"
                ));
            }
        }
        if !read(&root().join(format!("docs/guide/src/rules/{m}.md")))
            .contains("## Sizes (`lockstep verify`)")
        {
            problems.push(format!(
                "{m}: a Sizes section in docs/guide/src/rules/{m}.md"
            ));
        }
    }
    // Every puzzle folder of the harness is on the list.
    let folders =
        std::fs::read_dir(root().join("crates/harness/src/puzzles")).expect("the puzzles");
    for folder in folders.flatten().filter(|e| e.path().is_dir()) {
        let name = folder.file_name().to_string_lossy().into_owned();
        if !puzzles.iter().any(|&(_, m)| m == name) {
            problems.push(format!(
                "crates/harness/src/puzzles/{name}/ is on no list entry"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every file with extension `ext` under `dir` (read recursively, a folder
/// that `enter` refuses left out), sorted: the one walk of the layout tests.
fn walk(dir: &Path, ext: &str, enter: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    fn visit(dir: &Path, ext: &str, enter: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if enter(&path) {
                    visit(&path, ext, enter, out);
                }
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    visit(dir, ext, enter, &mut out);
    out.sort();
    out
}

/// Every `.rs` file under `dir`, recursively, relative to the root.
fn rust_files(dir: &str) -> Vec<PathBuf> {
    walk(&root().join(dir), "rs", &|_| true)
        .into_iter()
        .map(|p| {
            p.strip_prefix(root())
                .expect("under the root")
                .to_path_buf()
        })
        .collect()
}

/// The source files the house rules are about: every crate's and the fuzz
/// targets', without unit-test files (`tests.rs`, `tests/` folders).
fn source_files() -> Vec<PathBuf> {
    let mut dirs = vec!["src".to_string(), "fuzz/fuzz_targets".to_string()];
    for entry in std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .flatten()
    {
        dirs.push(format!(
            "crates/{}/src",
            entry.file_name().to_string_lossy()
        ));
    }
    dirs.iter()
        .flat_map(|dir| rust_files(dir))
        .filter(|p| {
            !p.components().any(|c| c.as_os_str() == "tests")
                && p.file_name().is_none_or(|n| n != "tests.rs")
        })
        .collect()
}

/// Words of a line of Rust after `pub` forms: `pub fn run`, `pub(crate) struct X`.
fn public_items<'a>(text: &'a str, kinds: &[&str]) -> Vec<(&'a str, &'a str)> {
    let mut items = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix("pub") else {
            continue;
        };
        let rest = match rest.strip_prefix('(') {
            Some(r) => r.split_once(')').map_or("", |(_, r)| r),
            None => rest,
        };
        let mut words = rest.split_whitespace();
        let (Some(kind), Some(name)) = (words.next(), words.next()) else {
            continue;
        };
        if kinds.contains(&kind) {
            let name = name
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("");
            items.push((kind, name));
        }
    }
    items
}

#[test]
fn one_name_one_meaning() {
    let mut problems = Vec::new();
    let mut types: Vec<(String, String)> = Vec::new();
    for path in source_files() {
        let text = read(&root().join(&path));
        let file = path.to_string_lossy().to_string();
        for (_, name) in public_items(&text, &["fn"]) {
            if name == "run" {
                problems.push(format!(
                    "{file}: a public fn named run (name it after what it does)"
                ));
            }
        }
        // lockstep's own types; each puzzle's model types (`Case`,
        // `Answer`) live in their puzzle's module of core and the reference
        // and are meant alike, as are the planted bugs' third solvers.
        let model = ["crates/core/", "crates/reference/", "crates/planted/"];
        if !model.iter().any(|m| file.starts_with(m)) {
            for (_, name) in public_items(&text, &["struct", "enum", "type", "trait"]) {
                if let Some((other, _)) = types.iter().find(|(_, n)| n == name) {
                    problems.push(format!("{file} and {other}: two public types named {name}"));
                }
                types.push((file.clone(), name.to_string()));
            }
        }
    }
    assert!(types.len() > 50, "{} harness types found", types.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The cells of a markdown table row, split on `|` outside backticks.
fn cells(row: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut code = false;
    for c in row
        .trim()
        .trim_start_matches('|')
        .trim_end_matches('|')
        .chars()
    {
        match c {
            '`' => {
                code = !code;
                cell.push(c);
            }
            '|' if !code => cells.push(std::mem::take(&mut cell).trim().to_string()),
            _ => cell.push(c),
        }
    }
    cells.push(cell.trim().to_string());
    cells
}

/// The backticked words of a text, in order.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Whether `name` (a function, or `Type::method`) is defined in `text`: the
/// method as a `fn`, the type as a word. A constant or a match arm (in
/// capitals, or with a `::` path of variants) only has to appear.
fn defines(text: &str, name: &str) -> bool {
    let is_word = |word: &str| has_word(text, word);
    let last = name.rsplit("::").next().unwrap_or(name);
    let starts_lower = last.chars().next().is_some_and(|c| c.is_lowercase());
    if starts_lower {
        let head_ok = name
            .rsplit_once("::")
            .is_none_or(|(head, _)| head.split("::").all(is_word));
        head_ok && (text.contains(&format!("fn {last}(")) || text.contains(&format!("fn {last}<")))
    } else {
        name.split("::").all(is_word)
    }
}

/// The text of a source file named in the index, with its unit tests (a
/// `tests.rs` beside it or a `tests/` folder under its module).
fn source_with_tests(path: &str) -> Option<String> {
    let full = root().join(path);
    if !full.is_file() {
        return None;
    }
    let mut text = read(&full);
    let dir = full.parent().expect("a file has a folder");
    let module_dir = if full.file_name().is_some_and(|n| n == "mod.rs") {
        dir.to_path_buf()
    } else {
        dir.join(full.file_stem().expect("a stem"))
    };
    for extra in [
        module_dir.join("tests.rs"),
        dir.join("tests.rs"),
        module_dir.join("tests/mod.rs"),
    ] {
        if extra != full {
            text.push_str(&read(&extra));
        }
    }
    Some(text)
}

/// Checks one cell naming code: `[path](..): \`name\`, ...` groups for core
/// and reference, `\`path::test\`` and `\`…::test\`` for tests.
fn check_code_cell(cell: &str, tests: bool, problems: &mut Vec<String>, rule: &str) {
    if tests {
        let mut last_file: Option<String> = None;
        for span in code_spans(cell) {
            let (file, name) = if let Some(name) = span.strip_prefix("…::") {
                let Some(file) = last_file.clone() else {
                    problems.push(format!("{rule}: {span} has no file before it"));
                    continue;
                };
                (file, name.to_string())
            } else if let Some((file, name)) = span.split_once(".rs::") {
                (format!("{file}.rs"), name.to_string())
            } else {
                continue;
            };
            last_file = Some(file.clone());
            let Some(text) = source_with_tests(&file) else {
                problems.push(format!("{rule}: no file {file}"));
                continue;
            };
            let test = name.rsplit("::").next().unwrap_or(&name);
            if !(text.contains(&format!("fn {test}(")) || text.contains(&format!("mod {test} "))) {
                problems.push(format!("{rule}: {file} has no test {test}"));
            }
        }
        return;
    }
    // Groups: a link to a file, then the names of its code.
    for group in cell.split("[").skip(1) {
        let Some((path, rest)) = group.split_once("](") else {
            continue;
        };
        let Some((_, names)) = rest.split_once(')') else {
            continue;
        };
        let Some(text) = source_with_tests(path) else {
            problems.push(format!("{rule}: no file {path}"));
            continue;
        };
        for (name, narrowing) in names_with_depth(names) {
            let plain = name.trim_end_matches("()");
            let is_name = !plain.is_empty()
                && plain
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == ':');
            // A name in parentheses narrows the one before it (a constant, a
            // field, a match arm): it only has to appear in the file.
            let found = if narrowing {
                plain.split("::").all(|w| has_word(&text, w))
            } else {
                defines(&text, plain)
            };
            if is_name && !found {
                problems.push(format!("{rule}: {path} has no {plain}"));
            }
        }
    }
}

/// The backticked names of a cell, each with whether it stands in
/// parentheses.
fn names_with_depth(text: &str) -> Vec<(&str, bool)> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut rest = text;
    while let Some(tick) = rest.find('`') {
        for c in rest[..tick].chars() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        let after = &rest[tick + 1..];
        let Some(end) = after.find('`') else {
            break;
        };
        names.push((&after[..end], depth > 0));
        rest = &after[end + 1..];
    }
    names
}

/// Whether `word` stands in `text` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        edge(before) && edge(after)
    })
}

/// The rule index of a puzzle's page: the page's last section, from
/// `## Rule index` on.
fn rule_index(module: &str) -> (String, String) {
    let page = read(&root().join(format!("docs/guide/src/rules/{module}.md")));
    let index = page
        .split_once("\n## Rule index\n")
        .map_or(String::new(), |(_, index)| index.to_string());
    (page, index)
}

#[test]
fn everything_the_rule_index_names_exists() {
    let mut problems = Vec::new();
    let mut rows = 0;
    for entry in lockstep_registry::all() {
        let (page, index) = rule_index(entry.module());
        if index.is_empty() {
            problems.push(format!(
                "{}: no \"## Rule index\" on its rule page",
                entry.name()
            ));
        }
        for line in index.lines() {
            if !line.starts_with("| ") || line.starts_with("| rule |") {
                continue;
            }
            let cells = cells(line);
            if cells.len() < 6 {
                problems.push(format!("a row of {} cells: {line}", cells.len()));
                continue;
            }
            rows += 1;
            let rule = &cells[0];
            check_code_cell(&cells[1], false, &mut problems, rule);
            check_code_cell(&cells[2], false, &mut problems, rule);
            check_code_cell(&cells[3], true, &mut problems, rule);
            // A decision is quoted by its first words: they are on the page.
            for quote in cells[5].split('“').skip(1) {
                let quote = quote.split('”').next().unwrap_or("");
                for part in quote.split('…').map(str::trim).filter(|p| p.len() > 3) {
                    if !page.contains(part) {
                        problems.push(format!("{rule}: the rule page has no {part:?}"));
                    }
                }
            }
        }
    }
    assert!(rows > 100, "{rows} rows read");
    assert!(
        problems.is_empty(),
        "{} problems in the rule pages' rule indexes:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The one list of puzzles that stays in prose, the README's table, names
/// every puzzle of the registry (a row each, linking its rule page); the
/// guide's sidebar (SUMMARY.md) has a page for each.
#[test]
fn every_prose_list_of_puzzles_names_every_puzzle() {
    let readme = read(&root().join("README.md"));
    let summary = read(&root().join("docs/guide/src/SUMMARY.md"));
    let mut missing = Vec::new();
    for entry in lockstep_registry::all() {
        let (name, module) = (entry.name(), entry.module());
        let row = format!("| `{name}` |");
        if !readme.lines().any(|l| {
            l.starts_with(&row) && l.contains(&format!("(docs/guide/src/rules/{module}.md)"))
        }) {
            missing.push(format!(
                "README.md: no table row for `{name}` linking its rules"
            ));
        }
        if !summary.contains(&format!("(rules/{module}.md)")) {
            missing.push(format!("SUMMARY.md: no page for `{name}`'s rules"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Every rule branch `--stats` counts is tied to its rule: its name stands in
/// quotes in the rule index of its puzzle's rule page.
#[test]
fn every_rule_branch_is_named_in_the_rule_index() {
    fn branches<P: lockstep_harness::puzzle::Puzzle>(
    ) -> (&'static str, &'static str, &'static [&'static str]) {
        (P::NAME, P::MODULE, P::RULE_BRANCHES)
    }
    let mut missing = Vec::new();
    for (name, module, branches) in lockstep_harness::each_puzzle!(branches()) {
        let section = rule_index(module).1.replace('\n', " ");
        if branches.is_empty() {
            missing.push(format!("{name}: no rule branches"));
        }
        for branch in branches {
            if !section.contains(&format!("\"{branch}\"")) {
                missing.push(format!("{name}: \"{branch}\""));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in the rule pages' rule indexes:\n{}",
        missing.join("\n")
    );
}

/// What a coverage or fuzz run leaves behind is never committed: a stray
/// profile at the root (2 MB of them once landed) or a build directory.
#[test]
fn no_build_output_is_committed() {
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git runs (the tests run in a clone)");
    assert!(out.status.success(), "git ls-files failed");
    let listed = String::from_utf8(out.stdout).expect("file names are UTF-8");
    let stray: Vec<&str> = listed
        .split('\0')
        .filter(|p| {
            p.ends_with(".profraw")
                || p.ends_with(".profdata")
                || p.starts_with("target/")
                || p.starts_with("fuzz/target/")
        })
        .collect();
    assert!(listed.contains("Cargo.toml"), "git ls-files lists the tree");
    assert!(stray.is_empty(), "build output committed: {stray:?}");
}
