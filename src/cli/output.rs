//! How a command reports and writes: the `--format` of its report on
//! stdout, one JSON document, and a path checked before a run that writes
//! to it at the end.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How a command reports on stdout (`fuzz`, `verify`).
#[derive(clap::Args, Debug, Clone, Copy)]
pub(super) struct OutputArgs {
    /// The report on stdout: tables, or one JSON document (its schema:
    /// docs/guide/src/reference/json.md).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub(super) format: OutputFormat,
}

/// How a command writes its report on stdout.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum OutputFormat {
    /// Tables for a person.
    #[default]
    Text,
    /// One JSON document (its schema: docs/guide/src/reference/json.md).
    Json,
}

/// Checks, before a run, that a file could be written at `path` when it
/// ends: its directory exists, and a file can be made in it (a probe,
/// created and removed at once, as the final write makes its temporary
/// file). A night's work is not lost to a typo in a path.
pub(super) fn check_can_write(path: &Path, what: &str) -> Result<()> {
    if path.is_dir() {
        bail!("{what} {} is a directory, not a file", path.display());
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        bail!(
            "{what} {}: the directory {} does not exist",
            path.display(),
            dir.display()
        );
    }
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let probe = dir.join(format!(".{name}.{}.probe", std::process::id()));
    std::fs::File::options()
        .write(true)
        .create_new(true)
        .open(&probe)
        .with_context(|| {
            format!(
                "{what} {}: cannot write in {}",
                path.display(),
                dir.display()
            )
        })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Writes one JSON document on stdout.
pub(super) fn print_json(value: &serde_json::Value) {
    outln!(
        "{}",
        serde_json::to_string_pretty(value).expect("a JSON value serializes")
    );
}

/// Writes the JSON document of `command` on stdout: the fields of `body`
/// (a command's serde-derived outcome) and the `lockstep` (the command)
/// and `schema` fields every document of lockstep's has, keys in sorted
/// order (docs/guide/src/reference/json.md).
pub(super) fn print_document(command: &str, body: &impl serde::Serialize) {
    print_json(&crate::report::document(command, body));
}
