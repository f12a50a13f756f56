//! What `lockstep stress` and `stress any` print when the run ends: the
//! table or the JSON document, each failure's report, its row recorded and
//! its minimal input saved.

use super::super::common::{
    announce_corpus, print_document, record_finding, with_kind, OutputFormat,
};
use super::super::Exit;
use anyhow::{bail, Context, Result};
use lockstep_judge::stress::any::AnyOptions;
use lockstep_judge::Failed;
use lockstep_registry::stress::StressOptions;
use lockstep_registry::AnyPuzzle;
use serde::Serialize;
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
        lockstep_search::text::counted(options.plan.jobs as u64, "job"),
        options.comparison,
        options.limits,
        options.plan.jobs
    );
    match dir {
        Some(dir) => announce_corpus(Some(dir)),
        None => errln!(
            "findings: a failure's input is saved to {} and its corpus row printed (--corpus DIR also appends the row)",
            save.display()
        ),
    }
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
        out!("{}", lockstep_registry::StressTable(entry.name(), &summary));
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
        let path = saved_as(save, several, failure.kind.code());
        // The row holds the input too, so failing to save it is reported, not fatal.
        let saved = save_input(&path, &failure.input, "the row above holds it");
        if saved.is_some() && entry.has_trace() {
            errln!(
                "each step of it, as the reference plays it: lockstep solve {} --trace < {}",
                entry.name(),
                shell_word(&path.display().to_string())
            );
        }
        failures.push(PuzzleFailure {
            kind: failure.kind,
            input: failure.input.clone(),
            row: failure.row.clone(),
            recorded: recorded.map_or_else(|| "printed only".to_string(), |r| r.to_string()),
            saved,
            report: failure.report.clone(),
        });
    }
    if format == OutputFormat::Json {
        print_document(
            "stress",
            &PuzzleStress {
                puzzle: entry.name(),
                command: options.cmd.clone(),
                seed: options.plan.seed,
                exhaustive: exhaustive.map(|(up_to, cases, every)| Exhaustive {
                    up_to,
                    cases,
                    every_case_passed: every,
                }),
                jobs: options.plan.jobs,
                limits: options.limits.to_string(),
                counts: CountsDoc::of(&summary.counts),
                memory: MemoryDoc::of(&summary.memory),
                seconds: summary.elapsed.as_secs_f64(),
                failures,
                failing: failing_doc(&summary.failing),
                flaky: failing_doc(&summary.flaky),
            },
        );
    }
    Ok(Exit::found_if(!summary.failures.is_empty()))
}

/// `lockstep stress PUZZLE --format json`'s document.
#[derive(Serialize)]
struct PuzzleStress {
    puzzle: &'static str,
    command: String,
    seed: u64,
    exhaustive: Option<Exhaustive>,
    jobs: usize,
    limits: String,
    counts: CountsDoc,
    memory: MemoryDoc,
    seconds: f64,
    failures: Vec<PuzzleFailure>,
    failing: Vec<FailingCase<Failed>>,
    flaky: Vec<FailingCase<&'static str>>,
}

/// What an exhaustive run's levels hold, and whether every case passed.
#[derive(Serialize)]
struct Exhaustive {
    up_to: u32,
    cases: u64,
    every_case_passed: bool,
}

/// One shrunk failure of a puzzle's stress, its row, and where it went.
#[derive(Serialize)]
struct PuzzleFailure {
    kind: Failed,
    input: String,
    row: lockstep_harness::corpus::Row,
    recorded: String,
    saved: Option<String>,
    report: String,
}

/// A stress run's counts, as its JSON gives them.
#[derive(Serialize)]
pub(super) struct CountsDoc {
    cases: u64,
    ok: u64,
    wrong_answer: u64,
    runtime_error: u64,
    time_limit: u64,
    idle_limit: u64,
    flaky: u64,
    memory_limit: u64,
    output_limit: u64,
    skipped: u64,
}

impl CountsDoc {
    pub(super) fn of(counts: &lockstep_judge::Verdicts) -> CountsDoc {
        CountsDoc {
            cases: counts.cases,
            ok: counts.ok,
            wrong_answer: counts.wrong_answer,
            runtime_error: counts.runtime_error,
            time_limit: counts.time_limit,
            idle_limit: counts.idle_limit,
            flaky: counts.flaky,
            memory_limit: counts.memory_limit,
            output_limit: counts.output_limit,
            skipped: counts.skipped,
        }
    }
}

/// A failing (or flaky) case, its kind and its address, as the JSON
/// documents list them.
#[derive(Serialize)]
pub(super) struct FailingCase<K> {
    kind: K,
    case: String,
}

/// Every failing case of a run, by kind, as the JSON document lists them.
pub(super) fn failing_doc<K: Copy>(
    failing: &[(K, lockstep_search::Address)],
) -> Vec<FailingCase<K>> {
    failing
        .iter()
        .map(|&(kind, address)| FailingCase {
            kind,
            case: address.to_string(),
        })
        .collect()
}

/// A stress run's peak memory over its runs, in bytes (null when none was
/// measured).
#[derive(Serialize)]
struct MemoryDoc {
    median: Option<u64>,
    largest: Option<u64>,
}

impl MemoryDoc {
    fn of(memory: &lockstep_judge::MemoryFigures) -> MemoryDoc {
        MemoryDoc {
            median: memory.median(),
            largest: memory.largest(),
        }
    }
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
    let report = lockstep_judge::stress::any::stress_any(options)
        .context("making the checker's directory")?;
    run_end(&report, &report.end, format)?;
    let several = report.failures.len() > 1;
    let mut failures = Vec::new();
    for failure in &report.failures {
        let text = failure.report(options);
        errln!("\n{text}");
        let path = saved_as(save, several, failure.failed.code());
        let saved = save_input(&path, &failure.shrunk.text, "it is printed above");
        failures.push(AnyFailureDoc {
            kind: failure.failed.failure(),
            seed: failure.seed,
            original: failure.original.clone(),
            input: failure.shrunk.text.clone(),
            expected: failure.expected.clone(),
            rerun: failure.verdict.code(),
            saved,
            report: text,
        });
    }
    if format == OutputFormat::Json {
        print_document(
            "stress-any",
            &AnyStress {
                brute: options.brute.clone(),
                memory: MemoryDoc::of(&report.memory),
                failures,
                run: UserRunDoc::of(&options.run, &report.counts, report.elapsed, &report.end),
            },
        );
    }
    Ok(Exit::found_if(!report.failures.is_empty()))
}

/// `lockstep stress any --format json`'s document.
#[derive(Serialize)]
struct AnyStress {
    brute: String,
    memory: MemoryDoc,
    failures: Vec<AnyFailureDoc>,
    #[serde(flatten)]
    run: UserRunDoc,
}

/// What the documents of a run of the user's generator (`stress any`,
/// interactive stress) have alike: the programs, the seed and jobs, the
/// counts, the time, the warnings, and every failing and flaky case.
#[derive(Serialize)]
pub(super) struct UserRunDoc {
    generator: String,
    command: String,
    seed: u64,
    jobs: usize,
    counts: CountsDoc,
    seconds: f64,
    warnings: Vec<String>,
    failing: Vec<FailingCase<Failed>>,
    flaky: Vec<FailingCase<&'static str>>,
}

impl UserRunDoc {
    pub(super) fn of(
        run: &lockstep_judge::stress::UserRun,
        counts: &lockstep_judge::Verdicts,
        elapsed: std::time::Duration,
        end: &lockstep_judge::stress::RunEnd,
    ) -> UserRunDoc {
        UserRunDoc {
            generator: run.generator.clone(),
            command: run.solution.clone(),
            seed: run.plan.seed,
            jobs: run.plan.jobs,
            counts: CountsDoc::of(counts),
            seconds: elapsed.as_secs_f64(),
            warnings: end.warnings.clone(),
            failing: failing_doc(&end.failing),
            flaky: failing_doc(&end.flaky),
        }
    }
}

/// One shrunk failure of `stress any`.
#[derive(Serialize)]
struct AnyFailureDoc {
    kind: Failed,
    seed: u64,
    original: String,
    input: String,
    expected: String,
    /// The verdict of the shrunk input's run again (OK when it did not fail
    /// again).
    rerun: &'static str,
    saved: Option<String>,
    report: String,
}

/// Waits for the end when a signal is stopping lockstep: its thread kills
/// the programs and exits with the signal's code, and a failure seen now is
/// that kill's doing, never a finding to record.
pub(super) fn unless_interrupted() {
    if lockstep_process::interrupted() {
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
    end: &lockstep_judge::stress::RunEnd,
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
pub(super) fn seeds_banner(plan: &lockstep_search::Plan, generator: &str, rest: &str) -> String {
    format!(
        "lockstep stress: seeds {}, {}, ... for `{generator}`, {}, {rest} (repeat with --seed {} --jobs {})",
        plan.seed,
        plan.seed.wrapping_add(1),
        lockstep_search::text::counted(plan.jobs as u64, "job"),
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
    match lockstep_harness::corpus::write_whole(path, input.as_bytes()) {
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

/// `word` as one shell word: as it is when it needs no quoting, else in
/// single quotes (a path with spaces, say).
fn shell_word(word: &str) -> String {
    let plain = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c));
    match plain && !word.is_empty() {
        true => word.to_string(),
        false => format!("'{}'", word.replace('\'', "'\\''")),
    }
}
