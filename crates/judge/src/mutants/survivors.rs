//! Survivors turned into tests: each mutant no test kills is stressed
//! against the oracle (the brute force, or the model itself) on the user's
//! generator, as `stress any` runs a solution; the first input that rejects
//! it is shrunk and written into the test set as `mutant-N.in` with the
//! oracle's answer as `mutant-N.ans`. A survivor that a test written for an
//! earlier one already kills gets no test of its own; one that no generated
//! case tells apart from the oracle is probably equivalent, with the
//! evidence, and leaves the score's denominator.

use super::{build, MutantFate, MutantOptions, MutantScore};
use crate::stress::any::{stress_any, AnyOptions};
use crate::stress::GeneratorOptions;
use crate::test_set::{run_test_set, TestCase, TestSetOptions, TestText};
use crate::JudgeError;
use lockstep_search::shrinking::Budget;
use lockstep_search::Plan;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// How the survivors are hunted.
#[derive(Debug, Clone)]
pub struct Hunt {
    /// Prints an input; run with a seed as its last argument.
    pub generator: String,
    /// Prints the expected answer: the brute force, or the model.
    pub oracle: String,
    /// Reads an input on stdin; exit 0 means valid (shrunk inputs too).
    pub validator: Option<String>,
    /// The first seed; each survivor runs the same seeds.
    pub seed: u64,
    /// Cases per survivor.
    pub cases: u64,
    pub shrink: Budget,
    /// Each tool's time per run.
    pub tool_time: std::time::Duration,
    /// The test set's folder, where new tests are written.
    pub dir: PathBuf,
}

/// What the hunt made of one survivor.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "hunt", rename_all = "snake_case")]
pub enum Hunted {
    /// A generated input rejects it: shrunk, and written as test `test`.
    NewTest {
        test: String,
        seed: u64,
        verdict: &'static str,
        bytes: usize,
    },
    /// A test written for an earlier survivor kills it.
    KilledByNewTest { test: String },
    /// No generated case tells it from the oracle.
    ProbablyEquivalent { cases: u64, first_seed: u64 },
    /// A signal stopped the hunt first.
    NotHunted,
}

/// A survivor and what the hunt made of it.
#[derive(Debug, Clone, Serialize)]
pub struct HuntedMutant {
    pub number: usize,
    #[serde(flatten)]
    pub hunted: Hunted,
}

/// Every survivor of `score` hunted in turn (a test written for one is
/// tried on the next before its own hunt), `each` told of each as it ends;
/// with `options.progress`, a live line per hunt. `paths` are the mutants'
/// files, by number. An error is a tool's failure (the generator, the
/// oracle, the validator) or a test that could not be written.
pub fn hunt_survivors(
    options: &MutantOptions<'_>,
    score: &MutantScore,
    paths: &[(usize, PathBuf)],
    hunt: &Hunt,
    scratch: &Path,
    each: &dyn Fn(&HuntedMutant),
) -> Result<Vec<HuntedMutant>, JudgeError> {
    let mut added: Vec<TestCase> = Vec::new();
    let mut out = Vec::new();
    for mutant in score
        .mutants
        .iter()
        .filter(|m| m.fate == MutantFate::Survived)
    {
        let hunted = if lockstep_stop::interrupted() {
            Hunted::NotHunted
        } else {
            let path = paths
                .iter()
                .find(|(n, _)| *n == mutant.number)
                .map(|(_, p)| p.as_path())
                .ok_or_else(|| {
                    JudgeError::Tool(format!("mutant #{}: its file is gone", mutant.number))
                })?;
            hunt_one(options, mutant.number, path, hunt, &mut added, scratch)?
        };
        let hunted = HuntedMutant {
            number: mutant.number,
            hunted,
        };
        each(&hunted);
        out.push(hunted);
    }
    Ok(out)
}

/// One survivor: built, tried on the tests added so far, then stressed.
fn hunt_one(
    options: &MutantOptions<'_>,
    number: usize,
    path: &Path,
    hunt: &Hunt,
    added: &mut Vec<TestCase>,
    scratch: &Path,
) -> Result<Hunted, JudgeError> {
    let dir = scratch.join(format!("hunt{number}"));
    let source = dir.join(options.model.file_name().unwrap_or_default());
    std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::copy(path, &source))
        .map_err(|e| JudgeError::file(&source, e))?;
    let runnable = build::build_in(&source, options.language, &dir)?;
    let set = TestSetOptions {
        cmd: runnable.command.clone(),
        jobs: 1,
        progress: false,
        ..options.test_set.clone()
    };
    let on_added = run_test_set(added, &set, &|_| {})?;
    if let Some(test) = on_added.outcomes.iter().find(|t| !t.passed()) {
        let _ = std::fs::remove_dir_all(&dir);
        return Ok(Hunted::KilledByNewTest {
            test: test.name.clone(),
        });
    }
    let any = AnyOptions {
        run: GeneratorOptions {
            plan: Plan {
                progress: options.progress,
                ..Plan::cases(hunt.seed, hunt.cases, options.jobs, hunt.shrink)
            },
            generator: hunt.generator.clone(),
            solution: runnable.command,
            checker: options.test_set.checker.clone(),
            validator: hunt.validator.clone(),
            resources: options.test_set.resources,
            tool_time: hunt.tool_time,
            dump: None,
            keep: None,
        },
        brute: hunt.oracle.clone(),
        comparison: options.test_set.comparison,
    };
    let outcome =
        stress_any(&any).map_err(|e| JudgeError::Tool(format!("stressing mutant #{number}: {e}")));
    let _ = std::fs::remove_dir_all(&dir);
    let outcome = outcome?;
    if let Some(problem) = &outcome.end.problem {
        return Err(JudgeError::Tool(format!(
            "stressing mutant #{number}: {problem}"
        )));
    }
    let Some(failure) = outcome.failures.first() else {
        if lockstep_stop::interrupted() {
            return Ok(Hunted::NotHunted);
        }
        return Ok(Hunted::ProbablyEquivalent {
            cases: outcome.counts.cases,
            first_seed: hunt.seed,
        });
    };
    let test = write_test(
        &hunt.dir,
        &format!("mutant-{number}"),
        &failure.shrunk.text,
        &failure.expected,
    )?;
    added.push(test.clone());
    Ok(Hunted::NewTest {
        test: test.name,
        seed: failure.seed,
        verdict: failure.failed.code(),
        bytes: failure.shrunk.text.len(),
    })
}

/// `NAME.in` and `NAME.ans` written into `dir`, NAME made unique there
/// (`mutant-3`, else `mutant-3-2`, ...); never over a file that is there.
fn write_test(dir: &Path, name: &str, input: &str, answer: &str) -> Result<TestCase, JudgeError> {
    let free =
        |n: &str| !dir.join(format!("{n}.in")).exists() && !dir.join(format!("{n}.ans")).exists();
    let name = std::iter::once(name.to_string())
        .chain((2..).map(|k| format!("{name}-{k}")))
        .find(|n| free(n))
        .unwrap_or_default();
    let (input_path, answer_path) = (
        dir.join(format!("{name}.in")),
        dir.join(format!("{name}.ans")),
    );
    let write =
        |path: &Path, text: &str| std::fs::write(path, text).map_err(|e| JudgeError::file(path, e));
    write(&input_path, input)?;
    write(&answer_path, answer)?;
    Ok(TestCase {
        name,
        input: TestText::File(input_path),
        answer: Some(TestText::File(answer_path)),
    })
}

/// The fewest tests, picked greedily, that kill every mutant the whole set
/// kills: each step keeps the test that kills most of what is left (ties to
/// the earlier test), which is within a factor ln(n) of the fewest.
pub fn minimal_tests(kills: &[(String, Vec<usize>)]) -> Vec<String> {
    let mut left: std::collections::BTreeSet<usize> =
        kills.iter().flat_map(|(_, k)| k.iter().copied()).collect();
    let mut kept = Vec::new();
    loop {
        let mut best: Option<(usize, &(String, Vec<usize>))> = None;
        for entry in kills {
            let count = entry.1.iter().filter(|m| left.contains(m)).count();
            if count > 0 && best.is_none_or(|(most, _)| count > most) {
                best = Some((count, entry));
            }
        }
        let Some((_, (name, killed))) = best else {
            return kept;
        };
        for m in killed {
            left.remove(m);
        }
        kept.push(name.clone());
    }
}
