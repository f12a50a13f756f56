//! What `lockstep stress` and `stress any` print when the run ends: the
//! table or the JSON document, each failure's report, its row recorded and
//! its minimal input saved.

use super::super::common::{announce_corpus, print_json, record_finding, with_kind, OutputFormat};
use super::super::Exit;
use crate::registry::AnyPuzzle;
use crate::stress::any::AnyOptions;
use crate::stress::puzzle::StressOptions;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;

pub(super) fn stress_puzzle_summary(
    entry: &dyn AnyPuzzle,
    options: &StressOptions,
    banner: &str,
    save: &Path,
    dir: Option<&Path>,
    format: OutputFormat,
) -> Result<Exit> {
    // The cases an exhaustive run's levels hold, by their own count.
    let levels = options
        .plan
        .enumerate
        .map(|e| (e.up_to, entry.level_counts(e.up_to).iter().sum::<u64>()));
    let (cases, repeat) = match levels {
        Some((up_to, total)) => (
            format!("every case up to size {up_to} ({total})"),
            format!("--exhaustive --size {up_to}"),
        ),
        None => (
            format!("seed {}", options.plan.seed),
            format!("--seed {}", options.plan.seed),
        ),
    };
    errln!(
        "lockstep stress {}: {cases}, {}, {banner}, compared as {}, {} limits (repeat with {repeat} --jobs {})",
        entry.name(),
        crate::text::counted(options.plan.jobs as u64, "job"),
        options.comparison,
        options.limits,
        options.plan.jobs
    );
    announce_corpus(dir);
    let summary = entry.stress(options);
    unless_interrupted();
    // An exhaustive run passes every case of its levels, or says how far
    // it got.
    let exhaustive = levels.map(|(up_to, total)| {
        let run = summary.counts.cases + summary.counts.skipped;
        let every = summary.failures.is_empty() && summary.counts.skipped == 0 && run == total;
        (up_to, total, every)
    });
    if format == OutputFormat::Text {
        out!("{}", crate::registry::StressTable(entry.name(), &summary));
        if let Some((up_to, total, every)) = exhaustive {
            match every {
                true => outln!("passed: every case up to size {up_to} ({total})"),
                false => outln!(
                    "not every case up to size {up_to}: {} of {total} run, {} passed",
                    summary.counts.cases,
                    summary.counts.ok
                ),
            }
        }
    }
    let several = summary.failures.len() > 1;
    let mut failures = Vec::new();
    for failure in &summary.failures {
        errln!("\n{}", failure.report);
        let recorded = record_finding(entry, dir, &failure.row, format);
        let path = saved_as(save, several, failure.kind);
        // The row holds the input too, so failing to save it is reported, not fatal.
        let saved = save_input(&path, &failure.input, "the row above holds it");
        failures.push(serde_json::json!({
            "kind": failure.kind,
            "input": failure.input,
            "row": failure.row,
            "recorded": recorded.map_or_else(|| "printed only".to_string(), |r| r.to_string()),
            "saved": saved,
            "report": failure.report,
        }));
    }
    if format == OutputFormat::Json {
        print_json(&serde_json::json!({
            "lockstep": "stress",
            "schema": crate::report::SCHEMA,
            "puzzle": entry.name(),
            "command": options.cmd,
            "seed": options.plan.seed,
            "exhaustive": exhaustive.map(|(up_to, total, every)| serde_json::json!({
                "up_to": up_to,
                "cases": total,
                "every_case_passed": every,
            })),
            "jobs": options.plan.jobs,
            "limits": options.limits.to_string(),
            "counts": counts_json(&summary.counts),
            "memory": memory_json(&summary.memory),
            "seconds": summary.elapsed.as_secs_f64(),
            "failures": failures,
            "failing": failing_json(&summary.failing),
            "flaky": failing_json(&summary.flaky),
        }));
    }
    Ok(Exit::found_if(!summary.failures.is_empty()))
}

/// A stress run's counts, as its JSON gives them.
pub(super) fn counts_json(counts: &crate::judge::Verdicts) -> serde_json::Value {
    serde_json::json!({
        "cases": counts.cases,
        "ok": counts.ok,
        "wrong_answer": counts.wrong_answer,
        "runtime_error": counts.runtime_error,
        "time_limit": counts.time_limit,
        "idle_limit": counts.idle_limit,
        "flaky": counts.flaky,
        "memory_limit": counts.memory_limit,
        "output_limit": counts.output_limit,
        "skipped": counts.skipped,
    })
}

/// Every failing case of a run, by kind, as the JSON document lists them.
pub(super) fn failing_json(failing: &[(&str, crate::search::Address)]) -> serde_json::Value {
    failing
        .iter()
        .map(|(kind, address)| serde_json::json!({"kind": kind, "case": address.to_string()}))
        .collect()
}

/// A stress run's peak memory over its runs, in bytes (null when none was
/// measured).
fn memory_json(memory: &crate::judge::MemoryFigures) -> serde_json::Value {
    serde_json::json!({ "median": memory.median(), "largest": memory.largest() })
}

pub(super) fn stress_any_summary(
    options: &AnyOptions,
    banner: &str,
    save: &Path,
    format: OutputFormat,
) -> Result<Exit> {
    let judged = match &options.run.checker {
        Some(_) => "judged by the checker".to_string(),
        None => format!("compared as {}", options.comparison),
    };
    errln!(
        "{}",
        seeds_banner(
            &options.run.plan,
            &options.run.generator,
            &format!("{banner}, {judged}")
        )
    );
    let report =
        crate::stress::any::stress_any(options).context("making the checker's directory")?;
    run_end(&report, &report.end, format)?;
    let several = report.failures.len() > 1;
    let mut failures = Vec::new();
    for failure in &report.failures {
        let text = failure.report(options);
        errln!("\n{text}");
        let path = saved_as(save, several, failure.failed.code());
        let saved = save_input(&path, &failure.shrunk.text, "it is printed above");
        failures.push(serde_json::json!({
            "kind": failure.failed.code(),
            "seed": failure.seed,
            "original": failure.original,
            "input": failure.shrunk.text,
            "expected": failure.expected,
            "rerun": failure.verdict.code(),
            "saved": saved,
            "report": text,
        }));
    }
    if format == OutputFormat::Json {
        print_json(&serde_json::json!({
            "lockstep": "stress-any",
            "schema": crate::report::SCHEMA,
            "generator": options.run.generator,
            "brute": options.brute,
            "command": options.run.solution,
            "seed": options.run.plan.seed,
            "jobs": options.run.plan.jobs,
            "counts": counts_json(&report.counts),
            "memory": memory_json(&report.memory),
            "seconds": report.elapsed.as_secs_f64(),
            "warnings": report.end.warnings,
            "failures": failures,
            "failing": failing_json(&report.end.failing),
            "flaky": failing_json(&report.end.flaky),
        }));
    }
    Ok(Exit::found_if(!report.failures.is_empty()))
}

/// Waits for the end when a signal is stopping lockstep: its thread kills
/// the programs and exits with the signal's code, and a failure seen now is
/// that kill's doing, never a finding to record.
pub(super) fn unless_interrupted() {
    if crate::process::interrupted() {
        loop {
            std::thread::park();
        }
    }
}

/// The end of a run of the user's programs: the table (in text output), the
/// warnings about the generator (which change no exit code: what was found
/// was found), and a tool's failure as the error.
pub(super) fn run_end(
    table: &dyn std::fmt::Display,
    end: &crate::stress::RunEnd,
    format: OutputFormat,
) -> Result<()> {
    unless_interrupted();
    if format == OutputFormat::Text {
        out!("{table}");
    }
    for warning in &end.warnings {
        errln!("warning: {warning}");
    }
    if let Some(problem) = &end.problem {
        bail!("{problem}");
    }
    Ok(())
}

/// The first line of a run of the user's generator: its seeds, the jobs,
/// `rest`, and how to repeat it.
pub(super) fn seeds_banner(plan: &crate::search::Plan, generator: &str, rest: &str) -> String {
    format!(
        "lockstep stress: seeds {}, {}, ... for `{generator}`, {}, {rest} (repeat with --seed {} --jobs {})",
        plan.seed,
        plan.seed.wrapping_add(1),
        crate::text::counted(plan.jobs as u64, "job"),
        plan.seed,
        plan.jobs
    )
}

/// Where a failure's minimal input is saved: `save`, or with several kinds
/// of failure, `save` named after the kind.
pub(super) fn saved_as(save: &Path, several: bool, kind: &str) -> std::path::PathBuf {
    if several {
        with_kind(save, kind)
    } else {
        save.to_path_buf()
    }
}

/// Saves a minimal failing input whole (never half-written) and says where;
/// a failure is said, with where else the input is, and is not fatal.
pub(super) fn save_input(path: &Path, input: &str, held_by: &str) -> Option<String> {
    match crate::corpus::write_whole(path, input.as_bytes()) {
        Ok(()) => {
            errln!("saved the minimal failing input to {}", path.display());
            Some(path.display().to_string())
        }
        Err(e) => {
            errln!(
                "could not save the minimal failing input to {}: {e:#} ({held_by})",
                path.display()
            );
            None
        }
    }
}
