//! `lockstep test PATH --cmd MODEL --mutants`: the test set scored by
//! mutants of the model solution (`lockstep_judge::mutants`), after the
//! model itself passed every test.

use super::judged::ProgramFlags;
use super::output::{print_document, OutputFormat};
use super::values::{at_least_one, non_empty_command};
use super::Exit;
use anyhow::{bail, Result};
use lockstep_judge::lang::{Language, Languages};
use lockstep_judge::mutants::{self, Hunt, MutantDir, MutantOptions};
use lockstep_judge::test_set::{TestCase, TestSetOptions, TestSetOutcome};
use lockstep_search::shrinking::Budget;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The model's source and its language, when the run can be scored: the
/// mutator is installed and `cmd` names a source of a known language.
/// Checked before the model runs, so that a missing tool costs no run.
pub(super) fn model_source(cmd: &str) -> Result<(PathBuf, Language)> {
    mutants::check_mutator().map_err(anyhow::Error::msg)?;
    let model = Path::new(cmd.trim());
    let languages = Languages::load().map_err(anyhow::Error::msg)?;
    match model.is_file().then(|| languages.of_path(model)).flatten() {
        Some(language) => Ok((model.to_path_buf(), language.clone())),
        None => bail!("--mutants mutates the model's source: --cmd must name a source file of a known language (`lockstep languages`), not {cmd:?}"),
    }
}

/// `test --mutants`' flags for turning survivors into tests.
#[derive(clap::Args, Debug)]
pub(super) struct HuntFlags {
    /// With --mutants: hunt each survivor with this generator (a seed as its
    /// last argument, as `stress any` runs it) against the oracle; the first
    /// input that rejects it is shrunk and written into the test set as
    /// mutant-N.in and mutant-N.ans. A survivor no case rejects is probably
    /// equivalent, and leaves the score.
    #[arg(long, value_parser = non_empty_command, requires = "mutants")]
    gen: Option<String>,
    /// With --gen: the oracle of the new tests' answers (the default: the
    /// model itself).
    #[arg(long, value_parser = non_empty_command, requires = "gen")]
    brute: Option<String>,
    /// With --gen: every generated and shrunk input must pass it (exit 0), so
    /// that each new test is within the problem's limits.
    #[arg(long, value_parser = non_empty_command, requires = "gen")]
    validator: Option<String>,
    /// With --gen: the first seed of each survivor's hunt.
    #[arg(long, default_value_t = 1, requires = "gen")]
    seed: u64,
    /// With --gen: generated cases per survivor before it is called probably
    /// equivalent.
    #[arg(long, default_value_t = 500, value_parser = at_least_one, requires = "gen")]
    survivor_cases: u64,
    /// With --mutants: name the fewest tests that kill every mutant the whole
    /// set kills (a greedy set cover), so that a setter can keep the set
    /// small; no file is removed.
    #[arg(long, requires = "mutants")]
    minimize: bool,
}

/// One scoring run's settings beside the test set's options.
pub(super) struct ScoreRun<'a> {
    pub(super) model: (PathBuf, Language),
    /// The test set: where new tests go.
    pub(super) path: &'a Path,
    pub(super) format: OutputFormat,
    pub(super) most: u64,
    pub(super) hunt: &'a HuntFlags,
}

/// Mutates the model, runs every mutant over `tests` under the model's
/// options, hunts the survivors when a generator is given, prints the kill
/// table or the document; exit 1 when a mutant survives (the tests let a
/// wrong program through).
pub(super) fn score_tests(
    run: &ScoreRun<'_>,
    tests: &[TestCase],
    options: TestSetOptions,
    model_run: &TestSetOutcome,
) -> Result<Exit> {
    let (model, language) = &run.model;
    let failing: Vec<&str> = model_run
        .outcomes
        .iter()
        .filter(|t| !t.passed())
        .map(|t| t.name.as_str())
        .collect();
    if !failing.is_empty() {
        bail!(
            "--mutants: the model fails {} of the tests ({}): a score needs a model that passes every test",
            failing.len(),
            lockstep_text::clip(&failing.join(" "), 200)
        );
    }
    let scratch = MutantDir::new()?;
    let raw = scratch.path().join("mutants");
    std::fs::create_dir_all(&raw)?;
    let written = mutants::mutate(model, &raw).map_err(anyhow::Error::msg)?;
    let picked = mutants::even_sample(&written, usize::try_from(run.most).unwrap_or(usize::MAX));
    errln!(
        "lockstep test --mutants: {} of {} the mutator wrote{}, {} tests each, {}",
        picked.len(),
        written.len(),
        if picked.len() < written.len() {
            " (an even sample)"
        } else {
            ""
        },
        tests.len(),
        lockstep_text::counted(options.jobs as u64, "job"),
    );
    let hunt = hunt_of(run, model)?;
    let options = MutantOptions {
        model,
        language,
        jobs: options.jobs,
        test_set: options,
        progress: true,
    };
    let mut score = mutants::score(&options, tests, &picked, written.len(), scratch.path());
    if let Some(hunt) = hunt.filter(|_| score.survived > 0 && !lockstep_stop::interrupted()) {
        errln!(
            "lockstep test --mutants: hunting {} survivors with `{}`, {} cases each",
            score.survived,
            hunt.generator,
            hunt.cases
        );
        let paths: Vec<_> = picked
            .iter()
            .map(|p| (mutants::number_of(p), p.clone()))
            .collect();
        let start = std::time::Instant::now();
        let each = |h: &mutants::HuntedMutant| {
            lockstep_search::progress::suspended(|| errln!("  #{}: {}", h.number, h.hunted));
        };
        let hunted =
            mutants::hunt_survivors(&options, &score, &paths, &hunt, scratch.path(), &each)
                .map_err(anyhow::Error::msg)?;
        score.add_hunt(hunted);
        score.elapsed += start.elapsed();
    }
    if run.hunt.minimize {
        score.minimal = Some(mutants::minimal_tests(&score.kills()));
    }
    if let Some(signal) = lockstep_stop::stopped_by() {
        errln!("lockstep test --mutants: stopped by signal {signal}; the mutants not run are counted as such");
    }
    match run.format {
        OutputFormat::Text => out!("{score}"),
        OutputFormat::Json => print_document("test-mutants", &score),
    }
    let left = match &score.hunt {
        Some(hunted) => hunted
            .iter()
            .filter(|h| matches!(h.hunted, mutants::Hunted::NotHunted))
            .count(),
        None => score.survived,
    };
    Ok(Exit::found_if(left > 0))
}

/// The hunt `--gen` asks for: its programs made runnable, the oracle the
/// model when no --brute is given; new tests need a folder of tests.
fn hunt_of(run: &ScoreRun<'_>, model: &Path) -> Result<Option<Hunt>> {
    let flags = run.hunt;
    let Some(generator) = &flags.gen else {
        return Ok(None);
    };
    if !run.path.is_dir() {
        bail!(
            "--gen writes new tests into the test set: {} is not a folder of tests",
            run.path.display()
        );
    }
    let mut programs = ProgramFlags::new();
    let oracle = match &flags.brute {
        Some(brute) => programs.runnable("--brute", brute)?,
        None => programs.runnable("--cmd", &model.display().to_string())?,
    };
    Ok(Some(Hunt {
        generator: programs.runnable("--gen", generator)?.command,
        oracle: oracle.command,
        validator: programs
            .optional("--validator", flags.validator.as_ref())?
            .map(|r| r.command),
        seed: flags.seed,
        cases: flags.survivor_cases,
        shrink: Budget {
            attempts: 2000,
            time: Some(Duration::from_secs(120)),
        },
        tool_time: Duration::from_secs(10),
        dir: run.path.to_path_buf(),
    }))
}
