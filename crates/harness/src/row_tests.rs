//! Every corpus row as a test of its own, named `<module>/<row name>`, for the
//! `corpus_rows` test target: `cargo test robots/official-case-1` replays that
//! one row, and a failing row is named in the summary.
//!
//! The target's harness is libtest-mimic (`harness = false`), not libtest:
//! libtest names tests when the binary is compiled, and rows must be tests the
//! moment `lockstep fuzz` or `lockstep import` appends them, without a
//! rebuild. libtest-mimic reads libtest's flags and prints its lines; this
//! module only makes the tests. `crates/harness/tests/it/corpus.rs` keeps the
//! whole-corpus replay that collects every failure and asserts once.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// One row's test: its name, and the check that replays it (`Err` with why
/// it fails).
pub struct RowTest {
    pub name: String,
    pub check: Box<dyn FnOnce() -> Result<(), String> + Send>,
}

/// Each puzzle's file replayed once, the first time one of its rows is
/// checked: each row's result by name, or why the file did not replay.
type Replayed = Arc<OnceLock<Result<HashMap<String, Result<(), String>>, String>>>;

/// A test for every row of every puzzle's corpus under `dir`. A file that
/// does not load is one failing test, with the loader's line-numbered
/// message, named `<module>/(load)`, or `wanted` when that names a row of
/// the file (the filter a user gave), so that selecting a row of a broken
/// file fails rather than passing with nothing run.
pub fn row_tests(dir: &Path, wanted: Option<&str>) -> Vec<RowTest> {
    let mut tests = Vec::new();
    for entry in crate::replay::every_file() {
        let module = entry.module;
        let names = match (entry.names)(dir) {
            Ok(names) => names,
            Err(e) => {
                let why = format!("{e:#}");
                let name = wanted
                    .filter(|w| w.strip_prefix(module).is_some_and(|r| r.starts_with('/')))
                    .map_or_else(|| format!("{module}/(load)"), str::to_string);
                tests.push(RowTest {
                    name,
                    check: Box::new(move || Err(why)),
                });
                continue;
            }
        };
        let replayed = Replayed::default();
        for row in names {
            let (replayed, dir) = (replayed.clone(), dir.to_path_buf());
            tests.push(RowTest {
                name: format!("{module}/{row}"),
                check: Box::new(move || {
                    let results = replayed.get_or_init(|| {
                        (entry.replay_selected)(&dir, &|_| true)
                            .map(|rows| rows.into_iter().collect())
                            .map_err(|e| format!("{e:#}"))
                    });
                    match results {
                        Ok(rows) => rows.get(&row).cloned().unwrap_or_else(|| {
                            Err("the row was not found when replaying".to_string())
                        }),
                        Err(why) => Err(why.clone()),
                    }
                }),
            });
        }
    }
    tests
}
