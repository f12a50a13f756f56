//! `lockstep test PATH --cmd CMD`: a solution over a fixed set of tests (a
//! directory of `NAME.in` with `NAME.ans` or `NAME.out`, or a corpus file's
//! rows), in parallel, a line per test and the counts; exit 1 when a test
//! fails.

use super::common::{default_jobs, lookup};
use super::judged::{JudgeFlags, ProgramFlags, ResourceFlags};
use super::output::{print_document, OutputFormat};
use super::values::{at_least_one, non_empty_command, origin_name, thread_count};
use super::Exit;
use anyhow::{bail, Context, Result};
use lockstep_judge::test_set::{self, TestLine, TestSetOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub(super) struct TestArgs {
    /// A directory of tests, NAME.in with its answer NAME.ans (or
    /// NAME.out), as `stress --dump` writes them; or a corpus file
    /// (corpus/MODULE.csv), each row a test.
    path: PathBuf,
    /// The solution: a test's input on its stdin, its answer on stdout. A
    /// source file (.c .cpp .java .py .rs, ...) is compiled once into the
    /// cache (`lockstep languages`).
    #[arg(long, value_parser = non_empty_command)]
    cmd: String,
    #[command(flatten)]
    judged_by: JudgeFlags,
    /// Of a corpus file, only the rows of this origin (sample: the
    /// statements' samples).
    #[arg(long, value_parser = origin_name)]
    origin: Option<lockstep_harness::corpus::Origin>,
    /// Of a corpus file, which rows: those within the original statement's
    /// limits (the default: what a judge's tests hold, so what a contest
    /// solution must handle), or every row; the rows left out are counted
    #[arg(long = "limits", value_enum)]
    case_limits: Option<lockstep_harness::puzzle::CaseLimits>,
    /// Tests run at once; the default is this machine's cores.
    #[arg(long, default_value_t = default_jobs(), value_parser = thread_count)]
    jobs: usize,
    /// Time limit per run of the checker, in milliseconds
    /// (`--checker-timeout-ms`, its old name, still works).
    #[arg(long, alias = "checker-timeout-ms", default_value_t = 10_000, value_parser = at_least_one)]
    tool_timeout_ms: u64,
    #[command(flatten)]
    limits: ResourceFlags,
    /// text: a line per test and the counts; json: one document (its
    /// schema: docs/guide/src/reference/json.md).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
    /// Score the test set by mutants of the model solution: --cmd names the
    /// model's source (C, C++, Java, Python, Rust), which must pass every
    /// test; universalmutator (`pip install universalmutator`) writes its
    /// mutants, and each is built and run over every test. The report is a
    /// kill table: which test rejects which mutant, and the survivors.
    #[arg(long)]
    mutants: bool,
    /// With --mutants: at most this many mutants run, an even sample of
    /// those the mutator writes when it writes more.
    #[arg(long, default_value_t = 500, value_parser = at_least_one, requires = "mutants")]
    max_mutants: u64,
    #[command(flatten)]
    hunt: super::mutants::HuntFlags,
}

/// The tests `path` holds.
fn tests_at(args: &TestArgs) -> Result<Vec<test_set::TestCase>> {
    let path = &args.path;
    if path.is_dir() {
        if args.origin.is_some() || args.case_limits.is_some() {
            bail!(
                "--origin and --limits pick rows of a corpus file; {} is a directory",
                path.display()
            );
        }
        return test_set::tests_in_dir(path).with_context(|| format!("reading {}", path.display()));
    }
    if !path.is_file() || path.extension().is_none_or(|e| e != "csv") {
        bail!(
            "{}: neither a directory of tests nor a corpus file (MODULE.csv)",
            path.display()
        );
    }
    let module = path.file_stem().unwrap_or_default().to_string_lossy();
    let entry = lookup(&module)
        .with_context(|| format!("{}: the corpus file of which puzzle", path.display()))?;
    let wide = args.case_limits == Some(lockstep_harness::puzzle::CaseLimits::Wide);
    let rows: Vec<_> = entry
        .corpus_tests(path)?
        .into_iter()
        .filter(|row| args.origin.is_none_or(|o| o == row.origin))
        .collect();
    let (kept, beyond): (Vec<_>, Vec<_>) = rows
        .into_iter()
        .partition(|row| wide || row.within_original);
    if !beyond.is_empty() {
        errln!(
            "left out {} beyond the original statement's limits (--limits wide runs them)",
            lockstep_text::counted(beyond.len() as u64, "row")
        );
    }
    Ok(kept.into_iter().map(|row| row.test).collect())
}

pub(super) fn test(args: TestArgs) -> Result<Exit> {
    let tests = tests_at(&args)?;
    if tests.is_empty() {
        bail!("{}: no tests (NAME.in files, or rows)", args.path.display());
    }
    let model = match args.mutants {
        true => Some(super::mutants::model_source(&args.cmd)?),
        false => None,
    };
    let mut flags = ProgramFlags::new();
    let program = flags.runnable("--cmd", &args.cmd)?;
    let checker = flags.optional("--checker", args.judged_by.checker.as_ref())?;
    if let Err(message) = args.limits.check_start(&program) {
        bail!("--cmd: {message}");
    }
    let options = TestSetOptions {
        cmd: program.command.clone(),
        checker: checker.map(|c| c.command),
        comparison: args.judged_by.compare,
        resources: args.limits.per_run(&program),
        checker_time: Duration::from_millis(args.tool_timeout_ms),
        jobs: args.jobs,
        progress: true,
    };
    errln!(
        "lockstep test {}: {}, {}, {}, {}",
        args.path.display(),
        lockstep_text::counted(tests.len() as u64, "test"),
        lockstep_text::counted(options.jobs as u64, "job"),
        args.limits.banner(&program),
        match &options.checker {
            Some(_) => "judged by the checker".to_string(),
            None => format!("compared as {}", options.comparison),
        }
    );
    let width = tests
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(0);
    let text = args.format == OutputFormat::Text;
    let each = |outcome: &test_set::JudgedTest| {
        if text {
            // Above the progress line, which is drawn again below it.
            lockstep_search::progress::suspended(|| {
                out!("{}", TestLine { outcome, width });
            });
        }
    };
    let report = test_set::run_test_set(&tests, &options, &each).map_err(anyhow::Error::msg)?;
    if let Some(model) = model.filter(|_| lockstep_stop::stopped_by().is_none()) {
        if text {
            out!("{report}");
        }
        let run = super::mutants::ScoreRun {
            model,
            path: &args.path,
            format: args.format,
            most: args.max_mutants,
            hunt: &args.hunt,
        };
        return super::mutants::score_tests(&run, &tests, options, &report);
    }
    // Stopped by a signal: the tests done before it are the report, and
    // the rest were not run (the exit code is the signal's).
    if let Some(signal) = lockstep_stop::stopped_by() {
        errln!(
            "lockstep test: stopped by signal {signal} after {} of {} tests; the rest were not run",
            report.outcomes.len(),
            tests.len()
        );
    }
    match args.format {
        OutputFormat::Text => out!("{report}"),
        OutputFormat::Json => print_document("test", &report),
    }
    Ok(Exit::found_if(report.outcomes.iter().any(|o| !o.passed())))
}
