//! Every corpus row as a test of its own, named `<module>/<row name>`, for the
//! `corpus_rows` test target: `cargo test robots/official-case-1` replays that
//! one row, and a failing row is named in the summary.
//!
//! A harness of our own (`harness = false`), not libtest: libtest names tests
//! when the binary is compiled, and rows must be tests the moment `lockstep
//! fuzz` or `lockstep import` appends them, without a rebuild. It reads the
//! flags `cargo test` and `cargo nextest` pass (filters, `--exact`, `--skip`,
//! `--list`, `--ignored`), ignores the display ones, and prints libtest's lines.
//! `crates/harness/tests/it/corpus.rs` keeps the whole-corpus replay that collects every
//! failure and asserts once.

use std::io::{self, Write};
use std::path::Path;

/// The test binary's command line, as far as it selects tests.
#[derive(Debug, Default)]
pub struct RowTestArgs {
    filters: Vec<String>,
    skip: Vec<String>,
    exact: bool,
    list: bool,
    ignored_only: bool,
}

impl RowTestArgs {
    /// Reads libtest's flags (without the program name).
    pub fn parse(args: impl IntoIterator<Item = String>) -> RowTestArgs {
        let mut parsed = RowTestArgs::default();
        let mut it = args.into_iter();
        while let Some(arg) = it.next() {
            // `--flag=value` and `--flag value` alike.
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) if arg.starts_with("--") => {
                    (flag.to_string(), Some(value.to_string()))
                }
                _ => (arg.clone(), None),
            };
            let mut value = || inline.clone().or_else(|| it.next());
            match flag.as_str() {
                "--exact" => parsed.exact = true,
                "--list" => parsed.list = true,
                "--ignored" => parsed.ignored_only = true,
                "--skip" => parsed.skip.extend(value()),
                // Flags with a value that change only how results are shown
                // or ordered.
                "--test-threads" | "--color" | "--format" | "-Z" | "--logfile"
                | "--shuffle-seed" => {
                    value();
                }
                flag if flag.starts_with('-') => {}
                filter => parsed.filters.push(filter.to_string()),
            }
        }
        parsed
    }

    /// Whether the test `name` runs: libtest's rules (a filter or a skip is a
    /// substring of the name, or all of it with `--exact`). A corpus file that
    /// does not load (`module/(load)`) also runs when a filter names one of
    /// its rows, so that selecting a row of a broken file fails rather than
    /// passing with nothing run.
    fn selects(&self, name: &str) -> bool {
        let matches = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        let names_module = |f: &String| {
            name.strip_suffix("/(load)")
                .is_some_and(|module| f.split('/').next() == Some(module))
        };
        // No row is ignored, so `--ignored` selects none.
        !self.ignored_only
            && (self.filters.is_empty()
                || self.filters.iter().any(|f| matches(f) || names_module(f)))
            && !self.skip.iter().any(matches)
    }
}

/// Lists or replays the selected rows of every puzzle's corpus under `dir`,
/// writing libtest's lines to `out`; `Ok(false)` when a row failed.
pub fn run_row_tests(args: &RowTestArgs, dir: &Path, out: &mut dyn Write) -> io::Result<bool> {
    let corpora = crate::replay::every_file();
    let mut tests: Vec<(String, Option<String>)> = Vec::new();
    for entry in &corpora {
        match (entry.names)(dir) {
            Ok(names) => tests.extend(
                names
                    .into_iter()
                    .map(|row| (format!("{}/{row}", entry.module), None)),
            ),
            // A file that does not load is one failing test, with the loader's
            // line-numbered message.
            Err(e) => tests.push((format!("{}/(load)", entry.module), Some(format!("{e:#}")))),
        }
    }
    let all = tests.len();
    tests.retain(|(name, _)| args.selects(name));
    let filtered_out = all - tests.len();
    if args.list {
        for (name, _) in &tests {
            writeln!(out, "{name}: test")?;
        }
        return Ok(true);
    }
    writeln!(out, "\nrunning {} tests", tests.len())?;
    // Each puzzle's selected rows in one pass over its file.
    let names: std::collections::HashSet<&str> = tests.iter().map(|(n, _)| n.as_str()).collect();
    let mut results = std::collections::HashMap::new();
    for entry in &corpora {
        let module = entry.module;
        if !names
            .iter()
            .any(|name| name.starts_with(&format!("{module}/")))
        {
            continue;
        }
        let selected = |row: &str| names.contains(format!("{module}/{row}").as_str());
        match (entry.replay_selected)(dir, &selected) {
            Ok(replayed) => results.extend(
                replayed
                    .into_iter()
                    .map(|(row, result)| (format!("{module}/{row}"), result)),
            ),
            // Loaded for the list, not now: every selected row fails with why.
            Err(e) => {
                results.insert(format!("{module}/*"), Err(format!("{e:#}")));
            }
        }
    }
    let mut failures = Vec::new();
    for (name, load_error) in &tests {
        let module = name.split_once('/').map_or(name.as_str(), |(m, _)| m);
        let result = match load_error {
            Some(e) => Err(e.clone()),
            None => results
                .remove(name)
                .or_else(|| results.get(&format!("{module}/*")).cloned())
                .unwrap_or_else(|| Err("the row was not found when replaying".to_string())),
        };
        match result {
            Ok(()) => writeln!(out, "test {name} ... ok")?,
            Err(problem) => {
                writeln!(out, "test {name} ... FAILED")?;
                failures.push((name, problem));
            }
        }
    }
    if !failures.is_empty() {
        writeln!(out, "\nfailures:\n")?;
        for (name, problem) in &failures {
            writeln!(out, "---- {name} ----\n{problem}\n")?;
        }
        writeln!(out, "failures:")?;
        for (name, _) in &failures {
            writeln!(out, "    {name}")?;
        }
    }
    writeln!(
        out,
        "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {filtered_out} filtered out\n",
        if failures.is_empty() { "ok" } else { "FAILED" },
        tests.len() - failures.len(),
        failures.len()
    )?;
    Ok(failures.is_empty())
}
