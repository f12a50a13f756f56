//! The CSV corpus: one file per puzzle, one case per row, replayed by `cargo test`.
//!
//! Rows hold decoded values (the judge input and the agreed answer as text), never
//! raw fuzzer bytes, which stop reproducing the moment a generator changes. The
//! format is specified in `corpus/README.md`; this module is its implementation.
//! Loading is strict and names the line of every problem: unknown or missing
//! columns, a bad name, a duplicate name, an unknown origin, an input the puzzle's
//! parser rejects.

use crate::puzzle::{Attempt, Puzzle};
use anyhow::{bail, Context, Result};
use lockstep_core::Model;
use lockstep_text::{clip, first_difference, judge_lines, same_output, QUOTE_CHARS};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::fs;
use std::io::Write;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

/// The columns, in the order they are written.
pub const COLUMNS: [&str; 6] = ["name", "input", "expected", "origin", "note", "signature"];

/// The columns a file must have: every one but `signature`, which files
/// written before bug signatures lack (an append adds it).
pub const REQUIRED_COLUMNS: [&str; 5] = ["name", "input", "expected", "origin", "note"];

/// Where a row came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A sample from the statement or the spec.
    Sample,
    /// Found by `lockstep fuzz` or cargo-fuzz.
    Fuzz,
    /// Found by a quickcheck property.
    Quickcheck,
    /// Checked against a solution from outside the project.
    Peer,
    /// Written by hand.
    Hand,
    /// Found by `lockstep stress` against a user's program.
    Stress,
    /// Kept by `lockstep corpus distill` for the code or rule branches it
    /// reaches (the core and the reference agree on it).
    Coverage,
    /// Found by `lockstep verify`: the smallest disagreement of its levels.
    Verify,
    /// Kept by the mutation-guided distill (`scripts/mutation-score
    /// --distill`): the first case that rejects a mutant of the core no row
    /// before it rejected, shrunk; the note names the mutant.
    Mutant,
    /// Built by hand at a constant of the statement (a turn limit, the
    /// largest board, a count at its bound); the note says which.
    Boundary,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Origin::Sample => "sample",
            Origin::Fuzz => "fuzz",
            Origin::Quickcheck => "quickcheck",
            Origin::Peer => "peer",
            Origin::Hand => "hand",
            Origin::Stress => "stress",
            Origin::Coverage => "coverage",
            Origin::Verify => "verify",
            Origin::Mutant => "mutant",
            Origin::Boundary => "boundary",
        };
        f.write_str(name)
    }
}

/// One corpus row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// Kebab-case, unique in the file; names the symptom.
    pub name: String,
    /// The judge input, line breaks written as the puzzle's
    /// [`line_break`] (`|`, or `;` for the duel).
    pub input: String,
    /// The expected judge output, line breaks written the same way.
    pub expected: String,
    pub origin: Origin,
    pub note: String,
    /// The bug signature of a finding ([`crate::signature`]); empty for a
    /// sample, a hand-written row, or a file older than signatures.
    #[serde(default)]
    pub signature: String,
}

/// A row as loaded, with the line it starts on.
#[derive(Debug, Clone)]
pub struct Loaded<C> {
    pub line: u64,
    pub row: Row,
    pub case: C,
}

/// A field back to judge text, with a final newline.
pub fn decode_text(field: &str) -> String {
    decode_text_with(field, '|')
}

/// Judge text to a one-line field: line breaks become `line_break` (`|`,
/// or `;` for the duel), the final one is dropped (see
/// [`line_break`]).
pub fn encode_text_with(text: &str, line_break: char) -> String {
    text.trim_end_matches(['\n', '\r'])
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join(&line_break.to_string())
}

/// [`decode_text`] with another line-break character.
pub fn decode_text_with(field: &str, line_break: char) -> String {
    let mut text = field.replace(line_break, "\n");
    text.push('\n');
    text
}

/// The character that stands for a line break in puzzle `P`'s corpus fields
/// (`input`, `expected`): `|`, which no judge format holds, but `;` for a
/// puzzle whose lines hold `|` themselves (the list's `semicolons` flag:
/// the duel's step format).
pub fn line_break<P: Puzzle>() -> char {
    macro_rules! semicolons {
        ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {
            [$((stringify!($m), crate::puzzle_flag!(semicolons; $($flag)*))),*]
        };
    }
    let semicolons = crate::for_each_puzzle!(semicolons)
        .iter()
        .any(|&(module, semicolons)| module == P::MODULE && semicolons);
    if semicolons {
        ';'
    } else {
        '|'
    }
}

/// Judge text to a field of puzzle `P`'s corpus.
pub fn encode_for<P: Puzzle>(text: &str) -> String {
    encode_text_with(text, line_break::<P>())
}

/// A field of puzzle `P`'s corpus back to judge text.
pub fn decode_for<P: Puzzle>(field: &str) -> String {
    decode_text_with(field, line_break::<P>())
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && !name.ends_with('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The corpus file of a puzzle under `dir`.
pub fn path_for<P: Puzzle>(dir: &Path) -> PathBuf {
    dir.join(format!("{}.csv", P::MODULE))
}

/// Loads and checks every row of a puzzle's corpus file. A missing file is an
/// error naming it (a deleted corpus must not replay as "0 rows"); an empty
/// (0-byte) file holds no rows.
pub fn load<P: Puzzle>(path: &Path) -> Result<Vec<Loaded<P::Case>>> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    parse::<P>(path, &bytes)
}

/// [`load`] on a file's contents already read (`path` names it in errors):
/// the first row that does not load is the file's error.
fn parse<P: Puzzle>(path: &Path, bytes: &[u8]) -> Result<Vec<Loaded<P::Case>>> {
    parse_each::<P>(path, bytes)?
        .into_iter()
        .map(|row| row.map_err(|bad| anyhow::anyhow!("{}", bad.message)))
        .collect()
}

/// A row that does not load: its line, its name when it has one, and why
/// (the message names the file and the line).
#[derive(Debug, Clone)]
pub struct BadRow {
    pub line: u64,
    pub name: Option<String>,
    pub message: String,
}

/// Loads every row of a puzzle's corpus file, each on its own: a row that
/// does not load is a [`BadRow`] in its place, and the rows after it still
/// load (`replay` reports them all). The file's own faults (missing,
/// unreadable, a bad header) are the error, and so is an empty (0-byte)
/// file: every corpus file has its header line, so an empty one was cut
/// short, and a replay must not pass it as "0 rows".
pub fn load_each<P: Puzzle>(path: &Path) -> Result<Vec<Result<Loaded<P::Case>, BadRow>>> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    if bytes.is_empty() {
        bail!(
            "{} is empty (0 bytes): a corpus file starts with its header line, so this one was cut short",
            path.display()
        );
    }
    parse_each::<P>(path, &bytes)
}

fn parse_each<P: Puzzle>(
    path: &Path,
    bytes: &[u8],
) -> Result<Vec<Result<Loaded<P::Case>, BadRow>>> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(bytes);
    let headers = reader
        .headers()
        .with_context(|| format!("{}: line 1: reading the header", path.display()))?
        .clone();
    for header in headers.iter() {
        if !COLUMNS.contains(&header) {
            bail!(
                "{}: line 1: unknown column {header:?} (the columns are {})",
                path.display(),
                COLUMNS.join(", ")
            );
        }
    }
    for column in REQUIRED_COLUMNS {
        if !headers.iter().any(|h| h == column) {
            bail!("{}: line 1: missing column {column:?}", path.display());
        }
    }

    let mut rows = Vec::new();
    let mut names = HashSet::new();
    let mut records = reader.records();
    loop {
        let position = records.reader().position().line();
        let Some(record) = records.next() else {
            break;
        };
        let bad = |line: u64, name: Option<&str>, why: String| BadRow {
            line,
            name: name.map(str::to_string),
            message: format!("{}: line {line}: {why}", path.display()),
        };
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                let line = e.position().map_or(position, |p| p.line());
                rows.push(Err(bad(line, None, format!("not a CSV row: {e}"))));
                continue;
            }
        };
        let line = record.position().map_or(0, |p| p.line());
        let row: Row = match record.deserialize(Some(&headers)) {
            Ok(row) => row,
            Err(e) => {
                rows.push(Err(bad(line, record.get(0), e.to_string())));
                continue;
            }
        };
        let name = Some(row.name.as_str());
        if !valid_name(&row.name) {
            let why = format!("name {:?} is not kebab-case (a-z, 0-9, -)", row.name);
            rows.push(Err(bad(line, name, why)));
            continue;
        }
        if !names.insert(row.name.clone()) {
            rows.push(Err(bad(
                line,
                name,
                format!("duplicate name {:?}", row.name),
            )));
            continue;
        }
        // The parser is shared by core and reference: a panic in it is a
        // row that does not load, not a crash of the whole replay.
        let text = decode_for::<P>(&row.input);
        match crate::puzzle::run_caught(|| P::Case::parse(&text)) {
            Ok(Ok(case)) => rows.push(Ok(Loaded { line, row, case })),
            Ok(Err(e)) => {
                let why = format!("input of {:?}: {e}", row.name);
                rows.push(Err(bad(line, name, why)));
            }
            Err(panic) => {
                let why = format!("input of {:?}: the parser panicked: {panic}", row.name);
                rows.push(Err(bad(line, name, why)));
            }
        }
    }
    Ok(rows)
}

pub mod distill;
mod write;

pub use write::*;

/// One row as CSV text (no header), for printing a finding ready to paste.
pub fn row_to_csv(row: &Row) -> String {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.serialize(row).expect("writing to memory");
    String::from_utf8(writer.into_inner().expect("writing to memory"))
        .expect("CSV of UTF-8 is UTF-8")
}

/// A corpus row for a case the core and reference disagree on. `expected` is the
/// reference's answer exactly as its judge output (`write_answer`): the oracle's
/// word stands until a person checks it (and may edit the row). `reference` is
/// `None` when the reference could not answer (it panicked, or ran out of fuel
/// even with replay's budget); `expected` is then empty, and the note says so.
///
/// The note is bounded whatever the answers' size: the case's size, the first
/// differing line (cut), the answers' lengths, and `provenance` (where the case
/// was found).
pub fn divergence_row<P: Puzzle>(
    case: &P::Case,
    symptom: &str,
    signature: &str,
    core: &Attempt<P::Answer>,
    reference: Option<&P::Answer>,
    origin: Origin,
    provenance: &str,
) -> Row {
    let expected = reference.map(P::Case::write_answer);
    let core_text = match core {
        Attempt::Ran(run) => Ok(P::Case::write_answer(&run.answer)),
        Attempt::Panicked(message) => {
            Err(format!("core panicked: {}", clip(message, 2 * QUOTE_CHARS)))
        }
        Attempt::OutOfFuel => Err("core did not finish".to_string()),
    };
    let difference = match (&core_text, &expected) {
        (Err(core), _) => core.clone(),
        (Ok(core), Some(expected)) if same_output(core, expected) => {
            "same answers, different step traces (lockstep replay shows the first differing step)"
                .to_string()
        }
        (Ok(core), Some(expected)) => {
            format!(
                "first difference at {}",
                first_difference("core", core, "reference", expected)
            )
        }
        (Ok(core), None) => format!("core answered {} lines", judge_lines(core).len()),
    };
    let mut note = format!("{}; {difference}", P::describe(case));
    if expected.is_none() {
        note.push_str("; the reference gave no answer, so expected is empty: fill it in by hand");
    }
    if !provenance.is_empty() {
        note.push_str("; ");
        note.push_str(provenance);
    }
    Row {
        name: symptom.to_string(),
        input: encode_for::<P>(&case.write_input()),
        expected: expected.map_or_else(String::new, |text| encode_for::<P>(&text)),
        origin,
        note,
        signature: signature.to_string(),
    }
}
