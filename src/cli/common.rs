//! What several commands share: picking puzzles by name, how long a run of
//! generated cases goes on, and the defaults that depend on the machine.

use super::values::{at_least_one, positive_seconds};
use anyhow::{Context, Result};
use lockstep_registry::{self as registry, AnyPuzzle};

/// The puzzles named on the command line, or all of them when none is.
pub(super) fn pick(names: &[String]) -> Result<Vec<&'static dyn AnyPuzzle>> {
    if names.is_empty() {
        return Ok(registry::all().to_vec());
    }
    // A puzzle named twice (either spelling) runs once, where it was first named.
    let mut entries: Vec<&'static dyn AnyPuzzle> = Vec::new();
    for name in names {
        let entry = lookup(name)?;
        if !entries.iter().any(|e| e.module() == entry.module()) {
            entries.push(entry);
        }
    }
    Ok(entries)
}

pub(super) fn lookup(name: &str) -> Result<&'static dyn AnyPuzzle> {
    registry::find(name).with_context(|| {
        let known: Vec<&str> = registry::all().iter().map(|e| e.name()).collect();
        format!("unknown puzzle {name:?} (known: {})", known.join(", "))
    })
}

/// The default of every `--jobs`: the machine's cores.
pub(super) fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Seconds as a person reads them: `45 s`, `12 min`, `3.5 h`, `9.1 days`.
pub(super) fn human_duration(seconds: f64) -> String {
    lockstep_text::duration(seconds)
}

/// How long a run of generated cases goes on: a number of cases, or a number
/// of seconds (30 when neither is given).
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "How long")]
pub(super) struct LengthFlags {
    /// Stop after this many cases.
    #[arg(long, conflicts_with = "seconds", value_parser = at_least_one)]
    pub(super) cases: Option<u64>,
    /// Stop after this many seconds (default 30 when --cases is not given).
    #[arg(long, value_parser = positive_seconds)]
    pub(super) seconds: Option<f64>,
}

impl LengthFlags {
    /// The time budget: `--seconds`, else unbounded with `--cases`, else 30 s.
    pub(super) fn seconds(&self) -> f64 {
        self.seconds.unwrap_or(if self.cases.is_some() {
            f64::INFINITY
        } else {
            30.0
        })
    }
}
