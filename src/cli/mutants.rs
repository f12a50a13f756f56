//! `lockstep test PATH --cmd MODEL --mutants`: the test set scored by
//! mutants of the model solution (`lockstep_judge::mutants`), after the
//! model itself passed every test.

use super::output::{print_document, OutputFormat};
use super::Exit;
use anyhow::{bail, Result};
use lockstep_judge::lang::{Language, Languages};
use lockstep_judge::mutants::{self, MutantDir, MutantOptions};
use lockstep_judge::test_set::{TestCase, TestSetOptions, TestSetOutcome};
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// Mutates the model, runs every mutant over `tests` under the model's
/// options, prints the kill table or the document; exit 1 when a mutant
/// survives (the tests let a wrong program through).
pub(super) fn score_tests(
    (model, language): &(PathBuf, Language),
    tests: &[TestCase],
    options: TestSetOptions,
    model_run: &TestSetOutcome,
    format: OutputFormat,
    most: u64,
) -> Result<Exit> {
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
    let picked = mutants::even_sample(&written, usize::try_from(most).unwrap_or(usize::MAX));
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
    let run = MutantOptions {
        model,
        language,
        jobs: options.jobs,
        test_set: options,
        progress: true,
    };
    let score = mutants::score(&run, tests, &picked, written.len(), scratch.path());
    if let Some(signal) = lockstep_stop::stopped_by() {
        errln!("lockstep test --mutants: stopped by signal {signal}; the mutants not run are counted as such");
    }
    match format {
        OutputFormat::Text => out!("{score}"),
        OutputFormat::Json => print_document("test-mutants", &score),
    }
    Ok(Exit::found_if(score.survived > 0))
}
