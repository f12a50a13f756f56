//! Recorded outputs: a fixed set of runs with fixed seeds and case caps (fuzz,
//! replay, each stress flavour, test sets, duel stress), their stdout, stderr
//! and exit code kept in `tests/golden/`, and held to them apart from what
//! depends on the clock or the machine (times, rates, memory, paths).
//!
//! They were recorded before the search loop and the judging were reshaped
//! (issue 41), so that the reshaping could show it changed no output. A
//! change that means to change an output records them again with
//! `LOCKSTEP_BLESS=1 cargo test --test cli golden -- --ignored`, and the diff of
//! `tests/golden/` shows what it changed.

use crate::support::{cli, made, scratch, BIN};
use std::path::Path;

/// The runs: a name (the file under `tests/golden/`) and the command line,
/// its words split at spaces, a single-quoted part one word, `{dir}` the
/// scratch directory and `{py}` `python3 tests/fixtures`. Every one names
/// its seed, caps its cases, and runs on one job where it stops at a
/// failure (which failure is found first on two jobs depended on the clock
/// before issue 43) or shrinks (a shrink is capped by its attempts, not by
/// time).
const GOLDENS: &[(&str, &str)] = &[
    ("fuzz-text", "fuzz --seed 7 --jobs 1 --cases 64 --no-append"),
    ("fuzz-json", "fuzz --seed 7 --jobs 2 --cases 64 --stats --keep-going --no-append --format json"),
    ("replay-text", "replay"),
    ("replay-json", "replay new-game2 footholds --format json --corpus {dir}/corpus"),
    ("stress-puzzle-text", "stress new-game2 --seed 3 --jobs 1 --cases 12 --keep-going --cmd '{py}/new_game2.py mixed' --shrink-attempts 30 --corpus {dir}/corpus --save {dir}/puzzle.txt"),
    ("stress-puzzle-json", "stress footholds --seed 5 --jobs 1 --cases 20 --no-append --format json --cmd '{py}/footholds.py wa' --shrink-attempts 30 --save {dir}/footholds.txt"),
    ("stress-puzzle-ok", "stress new-game2 --seed 11 --jobs 2 --cases 8 --no-append --cmd '{py}/new_game2.py ok'"),
    ("stress-any-text", "stress any --seed 1 --jobs 1 --cases 12 --gen '{py}/any/argmax.py gen' --brute '{py}/any/argmax.py brute' --cmd '{py}/any/argmax.py wrong' --checker '{py}/any/argmax.py check' --shrink-attempts 40 --save {dir}/argmax.txt"),
    ("stress-any-json", "stress any --seed 4 --jobs 1 --cases 12 --keep-going --format json --gen '{py}/any/max_subarray.py gen' --brute '{py}/any/max_subarray.py brute' --cmd '{py}/any/max_subarray.py wrong' --validator '{py}/any/max_subarray.py validate' --shrink-attempts 40 --save {dir}/subarray.txt"),
    ("stress-interactive-text", "stress --seed 1 --jobs 1 --cases 6 --interactor '{py}/interactive/guess.py interactor' --gen '{py}/interactive/guess.py gen' --cmd '{py}/interactive/guess.py sol wrong' --shrink-attempts 30 --save {dir}/guess.txt"),
    ("stress-interactive-json", "stress any --seed 3 --jobs 1 --cases 6 --format json --interactor '{py}/interactive/guess.py interactor' --gen '{py}/interactive/guess.py gen' --cmd '{py}/interactive/guess.py sol early' --validator '{py}/interactive/guess.py validate' --shrink-attempts 30 --save {dir}/early.txt"),
    ("test-text", "test corpus/footholds.csv --jobs 2 --cmd '{py}/footholds.py wa'"),
    ("test-json", "test corpus/new_game2.csv --jobs 2 --origin sample --format json --cmd '{py}/new_game2.py wa'"),
    ("duel-stress-illegal", "duel stress --seed 1 --jobs 1 --games 4 --cmd 'sh tests/fixtures/duel/illegal.sh' --save {dir}/illegal.log"),
    ("duel-stress-ok", "duel stress --seed 2 --jobs 2 --games 6 --cmd '{py}/setter/bot.py' --save {dir}/ok.log"),
];

/// A golden's command line as words: split at spaces, a single-quoted
/// part one word, the placeholders filled in.
fn words(line: &str, dir: &Path) -> Vec<String> {
    let line = line
        .replace("{dir}", &dir.display().to_string())
        .replace("{py}", "python3 tests/fixtures");
    let mut words = Vec::new();
    for (i, part) in line.split('\'').enumerate() {
        if i % 2 == 1 {
            words.push(part.to_string());
        } else {
            words.extend(part.split_whitespace().map(str::to_string));
        }
    }
    words
}

/// A copy of two shipped corpus files, one row of new_game2's made wrong,
/// for the replay that fails.
fn corpus_with_a_wrong_row(dir: &Path) {
    let corpus = made(dir.join("corpus"));
    let shipped = crate::support::corpus_dir();
    std::fs::copy(shipped.join("footholds.csv"), corpus.join("footholds.csv")).unwrap();
    let text = std::fs::read_to_string(shipped.join("new_game2.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // The first data row's expected answer: a number, made another.
    let row = &mut lines[1];
    let fields: Vec<&str> = row.splitn(3, ',').collect();
    let (name, input, rest) = (fields[0], fields[1], fields[2]);
    let (expected, tail) = rest.split_once(',').unwrap();
    let wrong: i64 = expected.parse::<i64>().unwrap() + 1;
    *row = format!("{name},{input},{wrong},{tail}");
    std::fs::write(corpus.join("new_game2.csv"), lines.join("\n") + "\n").unwrap();
}

/// What of a run is compared, with what the clock and the machine decide
/// taken out; spaces are folded, since columns are padded to the width of
/// a time.
mod scrub {
    /// The run as recorded: its arguments, exit code, stdout and stderr,
    /// each scrubbed.
    pub fn run(
        args: &[String],
        code: Option<i32>,
        stdout: &str,
        stderr: &str,
        paths: &[(&str, &str)],
    ) -> String {
        let stdout = match serde_json::from_str::<serde_json::Value>(stdout) {
            Ok(mut value) if stdout.trim_start().starts_with('{') => {
                json(&mut value, paths);
                serde_json::to_string_pretty(&value).unwrap() + "\n"
            }
            _ => text(stdout, paths),
        };
        format!(
            "$ lockstep {}\nexit: {code:?}\n--- stdout\n{stdout}--- stderr\n{}",
            text(&args.join(" "), paths).trim_end(),
            text(stderr, paths)
        )
    }

    /// Keys whose values are times, rates or memory: replaced by null.
    fn volatile_key(key: &str) -> bool {
        [
            "second", "time", "elapsed", "memory", "series", "_ms", "rate", "peak", "median",
            "largest",
        ]
        .iter()
        .any(|word| key.contains(word))
    }

    fn json(value: &mut serde_json::Value, paths: &[(&str, &str)]) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    if volatile_key(key) {
                        *value = serde_json::Value::Null;
                    } else {
                        json(value, paths);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|v| json(v, paths)),
            serde_json::Value::String(s) => *s = text(s, paths).trim_end_matches('\n').to_string(),
            _ => {}
        }
    }

    /// Units after which a number is a time, a rate or a size.
    const UNITS: &[&str] = &[
        "cases/s", "games/s", "ms", "s", "seconds", "µs", "ns", "min", "h", "KiB", "MiB", "GiB",
        "B", "bytes/s", "%",
    ];

    /// A progress line, drawn every ten seconds when stderr is not a
    /// terminal: how many depends on the clock. A run with a known end
    /// adds `, about T left`.
    fn progress(line: &str) -> bool {
        line.starts_with("shrinking the ")
            || ((line.ends_with(" s") || line.ends_with(" left"))
                && (line.contains(" cases/s, ") || line.contains(" games/s, ")))
    }

    pub fn text(text: &str, paths: &[(&str, &str)]) -> String {
        let mut out = String::new();
        // The column of a table's rate, from its header line.
        let mut rate_column: Option<usize> = None;
        for line in text.lines() {
            if progress(line) {
                continue;
            }
            let mut line = line.to_string();
            for (path, name) in paths {
                line = line.replace(path, name);
            }
            line = line.replace(env!("CARGO_MANIFEST_DIR"), "<repo>");
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(i) = words.iter().position(|w| *w == "cases/s") {
                rate_column = (!line.chars().any(|c| c.is_ascii_digit())).then_some(i);
            } else if line.trim().is_empty() {
                rate_column = None;
            } else if let Some(column) = rate_column {
                let mut words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                if let Some(rate) = words.get_mut(column) {
                    *rate = "#".to_string();
                }
                line = words.join(" ");
            }
            let line = numbers(&line);
            // Columns padded to a time's width, and lockstep's own events in a
            // transcript (which of two programs' ends it saw first is a race).
            let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
            if line.starts_with("# ms --- ") {
                continue;
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// Every number followed by a unit of [`UNITS`] made `#`.
    fn numbers(line: &str) -> String {
        let chars: Vec<char> = line.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < chars.len() {
            let starts = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric());
            if !starts {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                j += 1;
            }
            let rest: String = chars[j..].iter().collect();
            let after = rest.strip_prefix(' ').unwrap_or(&rest);
            let unit = UNITS.iter().any(|unit| {
                after.strip_prefix(unit).is_some_and(|tail| {
                    tail.chars()
                        .next()
                        .is_none_or(|c| !c.is_alphanumeric() && c != '/')
                })
            });
            if unit {
                out.push('#');
            } else {
                out.extend(&chars[i..j]);
            }
            i = j;
        }
        out
    }

    /// The first line where two recordings part, for the failure message.
    pub fn first_difference(recorded: &str, now: &str) -> String {
        let (a, b): (Vec<&str>, Vec<&str>) = (recorded.lines().collect(), now.lines().collect());
        for i in 0..a.len().max(b.len()) {
            if a.get(i) != b.get(i) {
                return format!(
                    "line {}:\n  recorded: {:?}\n  now:      {:?}",
                    i + 1,
                    a.get(i).unwrap_or(&"(end)"),
                    b.get(i).unwrap_or(&"(end)")
                );
            }
        }
        "(the same lines; line ends differ)".to_string()
    }
}

/// The scrubber drops every progress line, whatever its tail: a slow
/// machine draws one where a fast one draws none.
#[test]
fn progress_lines_are_scrubbed_whatever_their_tail() {
    let lines = [
        "stress: 5 cases, 1.2 cases/s, 2 not OK, 10 s",
        "stress: 5 cases, 1.2 cases/s, 2 not OK, 10 s, 5 of 12 cases (41%), about 14 s left",
        "stress: 5 cases, 1.2 cases/s, 2 not OK, 10 s, 5 of 12 cases (41%), about 2.5 min left",
        "duel: 3 games, 0.3 games/s, 0 not OK, 10 s, at most 20 s left",
        "shrinking the WA of seed 4: 17 -> 5 tokens, 9 candidates, 10 s",
    ];
    for line in lines {
        assert_eq!(scrub::text(line, &[]), "", "{line}");
    }
    let verdicts = "stress: 12 cases, 3.0 cases/s: 10 OK, 2 WA";
    assert_eq!(
        scrub::text(verdicts, &[]),
        "stress: 12 cases, # cases/s: 10 OK, 2 WA\n"
    );
}

/// The second tier: the heavy hunts, which `cargo test` leaves to CI
/// (`.ci/run`; docs/guide/src/tasks/measure.md).
mod hunt {
    use super::*;

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn recorded_outputs_hold() {
        let dir = scratch("golden");
        corpus_with_a_wrong_row(&dir);
        let bless = std::env::var_os("LOCKSTEP_BLESS").is_some();
        let golden_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
        let mut problems = Vec::new();
        for &(name, line) in GOLDENS {
            let command = cli("").args(words(line, &dir));
            let out = command.run();
            let shown = scrub::run(
                command.words(),
                out.status.code(),
                &String::from_utf8_lossy(&out.stdout),
                &String::from_utf8_lossy(&out.stderr),
                &[(dir.to_str().unwrap(), "<scratch>"), (BIN, "<lockstep>")],
            );
            let path = golden_dir.join(format!("{name}.txt"));
            if bless {
                std::fs::create_dir_all(&golden_dir).unwrap();
                std::fs::write(&path, &shown).unwrap();
                continue;
            }
            let recorded = std::fs::read_to_string(&path).unwrap_or_default();
            if recorded != shown {
                problems.push(format!(
                    "{name}: differs from {}\n{}",
                    path.display(),
                    scrub::first_difference(&recorded, &shown)
                ));
            }
        }
        assert!(
            problems.is_empty(),
            "{}\n(LOCKSTEP_BLESS=1 records them again)",
            problems.join("\n\n")
        );
    }
}
