//! What `lockstep stress` and `stress any` print when the run ends: the
//! table or the JSON document, each failure's report, its row recorded and
//! its minimal input saved.

use super::super::findings::{announce_corpus, record_finding, with_kind};
use super::super::output::{print_document, OutputFormat};
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
    let levels = options.plan.enumerate.map(|e| Levels::of(entry, e));
    let (cases, repeat) = match &levels {
        Some(levels) => (levels.to_string(), levels.repeat()),
        None => (
            format!("seed {}", options.plan.seed),
            format!("--seed {}", options.plan.seed),
        ),
    };
    errln!(
        "lockstep stress {}: {cases}, {}, {banner}, compared as {}, {} limits (repeat with {repeat} --jobs {})",
        entry.name(),
        lockstep_text::counted(options.plan.jobs as u64, "job"),
        options.comparison,
        options.limits,
        options.plan.jobs
    );
    match dir {
        Some(dir) => announce_corpus(Some(dir)),
        None => errln!(
            "findings: a failure's input is saved to {} as soon as it is found and as it shrinks, and its corpus row printed (--corpus DIR also appends the row)",
            saved_as(save, options.plan.keep_going, "<KIND>").display()
        ),
    }
    let summary = entry.stress(options);
    // An exhaustive run passes every case of its levels (it checked every
    // position, and each passed), or says how far it got and how to go on.
    let every =
        summary.failures.is_empty() && summary.counts.skipped == 0 && summary.resume.is_none();
    if format == OutputFormat::Text {
        out!("{}", lockstep_registry::StressTable(entry.name(), &summary));
        if let Some(levels) = &levels {
            match every {
                true => outln!("passed: {levels}"),
                false => outln!(
                    "not {levels}: {} run, {} passed",
                    summary.counts.cases,
                    summary.counts.ok
                ),
            }
        }
    }
    if let (Some(resume), true) = (
        summary.resume.filter(|_| levels.is_some()),
        summary.failures.is_empty() || options.plan.keep_going,
    ) {
        errln!(
            "stopped before {}: the {} before it were run; resume there (the two runs check every case once) with:\n  {}",
            resume.at,
            lockstep_text::counted(resume.cases_before, "case"),
            resume_command(resume.at)
        );
    }
    let failures = report_failures(
        entry,
        &summary,
        (save, dir),
        options.plan.keep_going,
        format,
    );
    if format == OutputFormat::Json {
        print_document(
            "stress",
            &PuzzleStress {
                puzzle: entry.name(),
                command: options.cmd.clone(),
                seed: options.plan.seed,
                exhaustive: levels.as_ref().map(|levels| Exhaustive {
                    up_to: levels.up_to,
                    cases: levels.total,
                    from: levels.from(),
                    every_case_passed: every,
                    resume: summary.resume.map(|r| r.at.to_string()),
                }),
                jobs: options.plan.jobs,
                limits: options.limits.to_string(),
                counts: summary.counts,
                memory: summary.memory.clone(),
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
    counts: lockstep_judge::Verdicts,
    memory: lockstep_judge::MemoryFigures,
    seconds: f64,
    failures: Vec<PuzzleFailure>,
    failing: Vec<FailingCase<Failed>>,
    flaky: Vec<FailingCase<&'static str>>,
}

/// What an exhaustive run's levels hold, and whether every case passed.
#[derive(Serialize)]
struct Exhaustive {
    up_to: u32,
    /// The cases of the levels the run covers, by their own count; null
    /// for a run resumed inside a level.
    cases: Option<u64>,
    /// Where the run started: `size 3 case 1234`, or null from size 1.
    from: Option<String>,
    every_case_passed: bool,
    /// Where a run that stopped before its end resumes (`--from`).
    resume: Option<String>,
}

/// The levels an exhaustive run covers: from size `from` (its level from
/// index `start`) to `up_to`, and their cases by the levels' own count
/// (`None` when the run starts inside a level).
struct Levels {
    from: u32,
    start: u64,
    up_to: u32,
    total: Option<u64>,
}

impl Levels {
    fn of(entry: &dyn AnyPuzzle, e: lockstep_search::Enumeration) -> Levels {
        let counts = entry.level_counts(e.up_to);
        let whole = counts.iter().skip(e.from as usize - 1).sum::<u64>();
        Levels {
            from: e.from,
            start: e.start,
            up_to: e.up_to,
            total: (e.start == 0).then_some(whole),
        }
    }

    /// Where the run starts, when not at the first case of size 1.
    fn from(&self) -> Option<String> {
        (self.from > 1 || self.start > 0).then(|| {
            lockstep_search::Address::Sized {
                size: self.from,
                index: self.start,
            }
            .to_string()
        })
    }

    /// The flags that run these levels again.
    fn repeat(&self) -> String {
        match self.from() {
            Some(from) => format!("--exhaustive --size {} --from '{from}'", self.up_to),
            None => format!("--exhaustive --size {}", self.up_to),
        }
    }
}

impl std::fmt::Display for Levels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.from() {
            Some(from) => write!(f, "every case from {from} up to size {}", self.up_to)?,
            None => write!(f, "every case up to size {}", self.up_to)?,
        }
        match self.total {
            Some(total) => write!(f, " ({total})"),
            None => Ok(()),
        }
    }
}

/// The command line that resumes this run at `at`: the words it was given,
/// with `--from` set to `at` (a `--from` it had is replaced).
fn resume_command(at: lockstep_search::Address) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut args = std::env::args();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--from" => {
                args.next();
            }
            _ if arg.starts_with("--from=") => {}
            _ => words.push(arg),
        }
    }
    words.push("--from".to_string());
    words.push(at.to_string());
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
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

/// Each shrunk failure reported on stderr, its row recorded and its input
/// saved: what the JSON document says of each.
fn report_failures(
    entry: &dyn AnyPuzzle,
    summary: &lockstep_registry::StressSummary,
    (save, dir): (&Path, Option<&Path>),
    keep_going: bool,
    format: OutputFormat,
) -> Vec<PuzzleFailure> {
    let mut failures = Vec::new();
    for failure in &summary.failures {
        errln!("\n{}", failure.report);
        let recorded = record_finding(entry, dir, &failure.row, format);
        let path = saved_as(save, keep_going, failure.kind.code());
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
    failures
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
    let mut failures = Vec::new();
    for failure in &report.failures {
        let text = failure.report(options);
        errln!("\n{text}");
        let path = saved_as(save, options.run.plan.keep_going, failure.failed.code());
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
                memory: report.memory.clone(),
                failures,
                run: GeneratorDoc::of(&options.run, &report.counts, report.elapsed, &report.end),
            },
        );
    }
    Ok(Exit::found_if(!report.failures.is_empty()))
}

/// `lockstep stress any --format json`'s document.
#[derive(Serialize)]
struct AnyStress {
    brute: String,
    memory: lockstep_judge::MemoryFigures,
    failures: Vec<AnyFailureDoc>,
    #[serde(flatten)]
    run: GeneratorDoc,
}

/// What the documents of a run of the user's generator (`stress any`,
/// interactive stress) have alike: the programs, the seed and jobs, the
/// counts, the time, the warnings, and every failing and flaky case.
#[derive(Serialize)]
pub(super) struct GeneratorDoc {
    generator: String,
    command: String,
    seed: u64,
    jobs: usize,
    counts: lockstep_judge::Verdicts,
    seconds: f64,
    warnings: Vec<String>,
    failing: Vec<FailingCase<Failed>>,
    flaky: Vec<FailingCase<&'static str>>,
}

impl GeneratorDoc {
    pub(super) fn of(
        run: &lockstep_judge::stress::GeneratorOptions,
        counts: &lockstep_judge::Verdicts,
        elapsed: std::time::Duration,
        end: &lockstep_judge::stress::StressEnd,
    ) -> GeneratorDoc {
        GeneratorDoc {
            generator: run.generator.clone(),
            command: run.solution.clone(),
            seed: run.plan.seed,
            jobs: run.plan.jobs,
            counts: *counts,
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

/// The end of a run of the user's programs: the table (in text output), the
/// warnings about the generator (which change no exit code: what was found
/// was found), and a tool's failure as the error.
pub(super) fn run_end(
    table: &dyn std::fmt::Display,
    end: &lockstep_judge::stress::StressEnd,
    format: OutputFormat,
) -> Result<()> {
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
        lockstep_text::counted(plan.jobs as u64, "job"),
        plan.seed,
        plan.jobs
    )
}

/// Where a failure's minimal input is saved: `save`, or in a run that
/// may find several kinds of failure (`--keep-going`), `save` named after
/// the kind (`x-WA.txt`). Known before the run ends, so that a failing
/// input is saved the moment it is found and again as it shrinks
/// ([`keep_in`]).
pub(super) fn saved_as(save: &Path, keep_going: bool, kind: &str) -> std::path::PathBuf {
    if keep_going {
        with_kind(save, kind)
    } else {
        save.to_path_buf()
    }
}

/// Keeps each failing input at [`saved_as`] the moment it is found and at
/// every step of its shrink, whole: a stop at any moment leaves the
/// smallest failing input so far on disk. A write that fails here is said
/// by the final [`save_input`].
pub(super) fn keep_in(save: &Path, keep_going: bool) -> lockstep_search::shrinking::Keep {
    let save = save.to_path_buf();
    lockstep_search::shrinking::Keep::new(move |kind, input| {
        let path = saved_as(&save, keep_going, kind);
        let _ = lockstep_harness::corpus::write_whole(&path, input.as_bytes());
    })
}

/// Saves a minimal failing input whole (never half-written) and says where;
/// a failure is said, with where else the input is, and is not fatal. Once
/// a signal has cut the shrink short, it is the smallest failing input so
/// far, and the line says so.
pub(super) fn save_input(path: &Path, input: &str, held_by: &str) -> Option<String> {
    match lockstep_harness::corpus::write_whole(path, input.as_bytes()) {
        Ok(()) => {
            match lockstep_stop::interrupted() {
                true => errln!(
                    "saved the smallest failing input so far (a signal cut its shrink short) to {}",
                    path.display()
                ),
                false => errln!("saved the minimal failing input to {}", path.display()),
            }
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
