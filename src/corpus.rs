//! The CSV corpus: one file per puzzle, one case per row, replayed by `cargo test`.
//!
//! Rows hold decoded values (the judge input and the agreed answer as text), never
//! raw fuzzer bytes, which stop reproducing the moment a generator changes. The
//! format is specified in `corpus/README.md`; this module is its implementation.
//! Loading is strict and names the line of every problem: unknown or missing
//! columns, a bad name, a duplicate name, an unknown origin, an input the puzzle's
//! parser rejects.

use crate::puzzle::Puzzle;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The columns, in the order they are written.
pub const COLUMNS: [&str; 5] = ["name", "input", "expected", "origin", "note"];

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
    /// [`Puzzle::CORPUS_LINE_BREAK`] (`|` unless the puzzle says otherwise).
    pub input: String,
    /// The expected judge output, line breaks written the same way.
    pub expected: String,
    pub origin: Origin,
    pub note: String,
}

/// A row as loaded, with the line it starts on.
#[derive(Debug, Clone)]
pub struct Loaded<C> {
    pub line: u64,
    pub row: Row,
    pub case: C,
}

/// Judge text to a one-line field: line breaks become `|`, the final one is dropped.
pub fn encode_text(text: &str) -> String {
    encode_text_with(text, '|')
}

/// A field back to judge text, with a final newline.
pub fn decode_text(field: &str) -> String {
    decode_text_with(field, '|')
}

/// [`encode_text`] with another line-break character (see
/// [`Puzzle::CORPUS_LINE_BREAK`]).
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

/// Judge text to a field of puzzle `P`'s corpus.
pub fn encode_for<P: Puzzle>(text: &str) -> String {
    encode_text_with(text, P::CORPUS_LINE_BREAK)
}

/// A field of puzzle `P`'s corpus back to judge text.
pub fn decode_for<P: Puzzle>(field: &str) -> String {
    decode_text_with(field, P::CORPUS_LINE_BREAK)
}

/// The lines of a judge output as a judge compares them: trailing spaces and
/// final newlines do not count.
pub fn judge_lines(text: &str) -> Vec<&str> {
    text.trim_end().lines().map(str::trim_end).collect()
}

/// Compares judge outputs as a judge would ([`judge_lines`]).
pub fn same_output(a: &str, b: &str) -> bool {
    judge_lines(a) == judge_lines(b)
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
/// empty corpus.
pub fn load<P: Puzzle>(path: &Path) -> Result<Vec<Loaded<P::Case>>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let file = fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(file);
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
    for column in COLUMNS {
        if !headers.iter().any(|h| h == column) {
            bail!("{}: line 1: missing column {column:?}", path.display());
        }
    }

    let mut rows = Vec::new();
    let mut names = HashSet::new();
    for record in reader.records() {
        let record = record.with_context(|| format!("reading {}", path.display()))?;
        let line = record.position().map_or(0, |p| p.line());
        let at = || format!("{}: line {line}", path.display());
        let row: Row = record.deserialize(Some(&headers)).with_context(at)?;
        if !valid_name(&row.name) {
            bail!(
                "{}: name {:?} is not kebab-case (a-z, 0-9, -)",
                at(),
                row.name
            );
        }
        if !names.insert(row.name.clone()) {
            bail!("{}: duplicate name {:?}", at(), row.name);
        }
        let case = P::parse_input(&decode_for::<P>(&row.input))
            .map_err(|e| anyhow::anyhow!("{}: input of {:?}: {e}", at(), row.name))?;
        rows.push(Loaded { line, row, case });
    }
    Ok(rows)
}

/// Appends a row to a puzzle's corpus file (creating it with a header), unless a row
/// with the same input is already there. A name already taken gets a numeric suffix.
/// Returns the name written, or `None` when the input was already present.
pub fn append<P: Puzzle>(path: &Path, mut row: Row) -> Result<Option<String>> {
    let existing = load::<P>(path)?;
    if existing.iter().any(|l| l.row.input == row.input) {
        return Ok(None);
    }
    let taken: HashSet<&str> = existing.iter().map(|l| l.row.name.as_str()).collect();
    if taken.contains(row.name.as_str()) {
        let base = row.name.clone();
        row.name = (2..)
            .map(|i| format!("{base}-{i}"))
            .find(|n| !taken.contains(n.as_str()))
            .expect("an unused suffix exists");
    }
    let contents = if path.exists() {
        fs::read(path).with_context(|| format!("reading {}", path.display()))?
    } else {
        Vec::new()
    };
    // The file's own column order (any order is allowed), or ours for a new file.
    let header: Vec<String> = if contents.is_empty() {
        COLUMNS.iter().map(|c| c.to_string()).collect()
    } else {
        csv::Reader::from_reader(contents.as_slice())
            .headers()
            .with_context(|| format!("{}: line 1: reading the header", path.display()))?
            .iter()
            .map(str::to_string)
            .collect()
    };
    let field = |column: &str| match column {
        "name" => row.name.clone(),
        "input" => row.input.clone(),
        "expected" => row.expected.clone(),
        "origin" => row.origin.to_string(),
        _ => row.note.clone(),
    };
    let mut writer = csv::WriterBuilder::new().from_writer(Vec::new());
    if contents.is_empty() {
        writer.write_record(&header)?;
    }
    writer.write_record(header.iter().map(|c| field(c)))?;
    let mut bytes = writer.into_inner().context("flushing the CSV row")?;
    // A hand-edited file may lack its final newline: do not glue the row onto
    // its last line.
    if !contents.is_empty() && !contents.ends_with(b"\n") {
        bytes.insert(0, b'\n');
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    // Append mode, so that rows written by someone else meanwhile survive.
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {} to append", path.display()))?;
    file.write_all(&bytes)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(Some(row.name))
}

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
/// reference's answer: the oracle's word stands until a person checks it (and may
/// edit the row); the note keeps what the core said.
pub fn divergence_row<P: Puzzle>(
    case: &P::Case,
    symptom: &str,
    core: &str,
    reference: &str,
    origin: Origin,
) -> Row {
    Row {
        name: symptom.to_string(),
        input: encode_for::<P>(&P::write_input(case)),
        expected: encode_for::<P>(reference),
        origin,
        note: format!(
            "{}; core answered {:?}, reference {:?}",
            P::describe(case),
            encode_for::<P>(core),
            encode_for::<P>(reference)
        ),
    }
}
