//! A test set scored by mutants of the model solution, for any problem:
//! universalmutator writes small wrong versions of the model's source (an
//! operator, a constant, a condition changed), each is built with the
//! language table and run over the test set under the judge's limits, and
//! a test kills a mutant when it rejects it. The score is the share of the
//! mutants that compiled which some test kills; the survivors are the
//! plausible bugs the tests let through (or mutants that change nothing a
//! test could see).
//!
//! universalmutator is the mutator: language-agnostic (C, C++, Java,
//! Python and Rust from one set of regexp rules), the one mutation research
//! uses across languages, and a single file in, a folder of mutants out.
//! cargo-mutants mutates a Rust crate through its own test command, not a
//! solution's source run against a test set, so it does not fit here.
//!
//! A mutant that does not compile is left out of the score and counted. A
//! mutant rejected only by a time limit (TLE or ILE) is killed: a judge
//! rejects it, and a mutant that loops is a bug the tests must catch.

use crate::lang::{build, Language};
use crate::test_set::{run_test_set, TestCase, TestSetOptions};
use crate::{JudgeError, Verdict};
use lockstep_process::Resources;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

mod report;
mod survivors;

pub use survivors::{hunt_survivors, minimal_tests, Hunt, Hunted, HuntedMutant};

/// The mutator's command (universalmutator's `mutate`, or the program
/// `LOCKSTEP_MUTATOR` names: one in a virtualenv, say), and how to get it.
pub const MUTATOR: &str = "mutate";
pub const MUTATOR_INSTALL: &str = "pip install universalmutator";

/// The mutator to run: `LOCKSTEP_MUTATOR`, else `mutate`.
pub fn mutator() -> String {
    std::env::var("LOCKSTEP_MUTATOR")
        .ok()
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| MUTATOR.to_string())
}

/// How long the mutator may take over one source.
const MUTATE_TIME: Duration = Duration::from_secs(300);

/// How a mutant run goes.
pub struct MutantOptions<'a> {
    /// The model solution's source and its language.
    pub model: &'a Path,
    pub language: &'a Language,
    /// The test set's options for the model (limits, comparison, checker);
    /// each mutant runs under the same, its own command in place of `cmd`.
    pub test_set: TestSetOptions,
    /// Mutants run at once.
    pub jobs: usize,
    /// A progress line on stderr.
    pub progress: bool,
}

/// What became of a mutant.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "fate", rename_all = "snake_case")]
pub enum MutantFate {
    /// It did not compile: left out of the score.
    NotCompiled { error: String },
    /// A test rejected it: the first in the tests' order, that test's
    /// verdict, and every test that rejects it.
    Killed {
        first: String,
        verdict: &'static str,
        by: Vec<String>,
    },
    /// Every test passed it.
    Survived,
    /// Not run to its end: a signal stopped the run.
    NotRun,
    /// Compiled, but not judged: one of the user's tools failed on its
    /// output (a checker), or a test could not be read. Left out of the
    /// score, as a mutant not run.
    NotJudged { error: String },
}

/// One mutant: the mutator's number for it (`sol.mutant.N.cpp`), the first
/// line it changes, as the model has it and as the mutant does, and its fate.
#[derive(Debug, Clone, Serialize)]
pub struct Mutant {
    pub number: usize,
    pub line: usize,
    /// The changed line as the model has it (empty: the mutant inserted a line).
    pub was: String,
    /// The changed line as the mutant has it (empty: the mutant deleted a line).
    pub now: String,
    #[serde(flatten)]
    pub fate: MutantFate,
}

/// A test and the mutants it kills (their numbers).
#[derive(Debug, Clone, Serialize)]
pub struct TestKills {
    pub name: String,
    pub kills: Vec<usize>,
}

/// A test set's score: every mutant's fate, every test's kills, and the
/// counts. The value the text report is drawn from, and, serialized, the
/// JSON document (`test-mutants`).
#[derive(Debug, Clone, Serialize)]
pub struct MutantScore {
    /// The model's source.
    pub model: String,
    /// The mutator, as run.
    pub mutator: String,
    /// Mutants the mutator wrote; `mutants` holds those run (every one, or
    /// an even sample).
    pub generated: usize,
    pub mutants: Vec<Mutant>,
    pub tests: Vec<TestKills>,
    pub killed: usize,
    pub survived: usize,
    pub not_compiled: usize,
    pub not_run: usize,
    /// Killed over killed and survived; `None` when no mutant compiled.
    pub score: Option<f64>,
    /// With a generator: what the hunt made of each survivor.
    pub hunt: Option<Vec<HuntedMutant>>,
    /// With a generator: the score with the tests the hunt wrote, over the
    /// mutants less the probably equivalent ones.
    pub score_after: Option<f64>,
    /// With `--minimize`: the fewest tests that kill all the set kills.
    pub minimal: Option<Vec<String>>,
    #[serde(rename = "elapsed_s", serialize_with = "crate::test_set::seconds")]
    pub elapsed: Duration,
}

/// The folder a run's mutants and builds live in: the judge's scratch
/// folder (private to the user), removed when dropped and at exit however
/// lockstep exits.
pub struct MutantDir(crate::checker::Scratch);

impl MutantDir {
    pub fn new() -> std::io::Result<MutantDir> {
        crate::checker::Scratch::new().map(MutantDir)
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

/// Whether `program` is a file, or one on the PATH.
fn found(program: &str) -> bool {
    Path::new(program).is_file() && program.contains('/') || crate::program::on_path(program)
}

/// The mutator to run, or why it cannot run: not installed, with the
/// command that installs it.
pub fn check_mutator() -> Result<String, JudgeError> {
    let mutator = mutator();
    if !found(&mutator) {
        return Err(JudgeError::Tool(format!(
            "the mutator `{mutator}` is not on the PATH: install universalmutator with `{MUTATOR_INSTALL}` (or name its `mutate` in LOCKSTEP_MUTATOR)"
        )));
    }
    Ok(mutator)
}

/// The model's mutants, written by universalmutator into `dir`, in the
/// mutator's order.
pub fn mutate(model: &Path, dir: &Path) -> Result<Vec<PathBuf>, JudgeError> {
    let mutator = check_mutator()?;
    let line = format!(
        "{} {} --noCheck --mutantDir {}",
        lockstep_process::quoted(Path::new(&mutator)),
        lockstep_process::quoted(model),
        lockstep_process::quoted(dir)
    );
    let limits = Resources {
        wall: MUTATE_TIME,
        ..Resources::new(MUTATE_TIME, 64 << 20)
    };
    let (run, _) = crate::tool(&line, "", limits);
    run.map_err(|why| JudgeError::Tool(format!("`{line}`: {why}")))?;
    let stem = model.file_stem().unwrap_or_default().to_string_lossy();
    let prefix = format!("{stem}.mutant.");
    let mut found: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| JudgeError::file(dir, e))?
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let number = name
                .strip_prefix(&prefix)?
                .split('.')
                .next()?
                .parse()
                .ok()?;
            Some((number, entry.path()))
        })
        .collect();
    found.sort();
    Ok(found.into_iter().map(|(_, path)| path).collect())
}

/// `most` of `items`, evenly spaced, in order (all when there are no more).
pub fn even_sample<T: Clone>(items: &[T], most: usize) -> Vec<T> {
    if items.len() <= most {
        return items.to_vec();
    }
    (0..most)
        .map(|i| items[i * items.len() / most].clone())
        .collect()
}

/// Where `mutant` differs from `model`: the first changed line's number (from
/// 1), as the model has it and as the mutant does. The change is what lies
/// between the lines both share at the start and at the end, so a line the
/// mutator inserted shows as `("", inserted)` and one it deleted as
/// `(deleted, "")`, not as the line after it changed.
pub fn first_change(model: &str, mutant: &str) -> (usize, String, String) {
    let (a, b): (Vec<&str>, Vec<&str>) = (model.lines().collect(), mutant.lines().collect());
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let changed = |lines: &[&str]| -> String {
        let line = (prefix < lines.len() - suffix).then(|| lines[prefix]);
        lockstep_text::clip(line.map_or("", |l| l.trim()), 100)
    };
    (prefix + 1, changed(&a), changed(&b))
}

/// The mutator's number of a mutant file (`sol.mutant.12.cpp` is 12).
pub fn number_of(path: &Path) -> usize {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    name.split(".mutant.")
        .nth(1)
        .and_then(|rest| rest.split('.').next()?.parse().ok())
        .unwrap_or(0)
}

/// One mutant built in its own folder under `scratch` (the model's file
/// name, so that a Java class still matches its file) and run over every
/// test.
fn run_mutant(
    path: &Path,
    options: &MutantOptions<'_>,
    tests: &[TestCase],
    scratch: &Path,
) -> MutantFate {
    let dir = scratch.join(format!("m{}", number_of(path)));
    let name = options.model.file_name().unwrap_or_default();
    let source = dir.join(name);
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::copy(path, &source)) {
        return MutantFate::NotCompiled {
            error: format!("{}: {e}", source.display()),
        };
    }
    let runnable = match build::build_in(&source, options.language, &dir) {
        Ok(runnable) => runnable,
        // A compile the signal killed says nothing of the mutant.
        Err(_) if lockstep_stop::interrupted() => return MutantFate::NotRun,
        Err(error) => {
            return MutantFate::NotCompiled {
                error: error.to_string(),
            }
        }
    };
    let set = TestSetOptions {
        cmd: runnable.command,
        jobs: 1,
        progress: false,
        ..options.test_set.clone()
    };
    let fate = match run_test_set(tests, &set, &|_| {}) {
        _ if lockstep_stop::interrupted() => MutantFate::NotRun,
        Err(error) => MutantFate::NotJudged {
            error: error.to_string(),
        },
        Ok(outcome) => {
            let failed: Vec<_> = outcome.outcomes.iter().filter(|t| !t.passed()).collect();
            match failed.first() {
                None => MutantFate::Survived,
                Some(first) => MutantFate::Killed {
                    first: first.name.clone(),
                    verdict: first.verdict.as_ref().map_or("--", Verdict::code),
                    by: failed.iter().map(|t| t.name.clone()).collect(),
                },
            }
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    fate
}

/// Every mutant of `mutants` over `tests`, `options.jobs` at once, with a
/// progress line; a signal stops the run between mutants, and those not
/// run to their end are `NotRun`.
pub fn score(
    options: &MutantOptions<'_>,
    tests: &[TestCase],
    mutants: &[PathBuf],
    generated: usize,
    scratch: &Path,
) -> MutantScore {
    let model_text = std::fs::read_to_string(options.model).unwrap_or_default();
    let fates: Mutex<Vec<Option<MutantFate>>> = Mutex::new(vec![None; mutants.len()]);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let line = |seconds: f64| {
        let finished = done.load(Ordering::Relaxed) as u64;
        let far = lockstep_search::progress::how_far(
            finished,
            Some((mutants.len() as u64, "mutants")),
            seconds,
            None,
        );
        format!(
            "test --mutants: {}, {seconds:.0} s",
            far.unwrap_or_default()
        )
    };
    let elapsed = lockstep_search::jobs::run_jobs(
        options.jobs.min(mutants.len()).max(1),
        |_| loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= mutants.len() || lockstep_stop::interrupted() {
                break;
            }
            let fate = run_mutant(&mutants[i], options, tests, scratch);
            fates.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(fate);
            done.fetch_add(1, Ordering::Relaxed);
        },
        options
            .progress
            .then_some(&line as lockstep_search::jobs::ProgressText<'_>),
    );
    let fates = fates.into_inner().unwrap_or_else(|e| e.into_inner());
    let mutants: Vec<Mutant> = mutants
        .iter()
        .zip(fates)
        .map(|(path, fate)| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            let (line, was, now) = first_change(&model_text, &text);
            Mutant {
                number: number_of(path),
                line,
                was,
                now,
                fate: fate.unwrap_or(MutantFate::NotRun),
            }
        })
        .collect();
    MutantScore::of(options, tests, mutants, generated, elapsed)
}

impl MutantScore {
    fn of(
        options: &MutantOptions<'_>,
        tests: &[TestCase],
        mutants: Vec<Mutant>,
        generated: usize,
        elapsed: Duration,
    ) -> MutantScore {
        let count = |f: fn(&MutantFate) -> bool| mutants.iter().filter(|m| f(&m.fate)).count();
        let killed = count(|f| matches!(f, MutantFate::Killed { .. }));
        let survived = count(|f| *f == MutantFate::Survived);
        let tests = tests
            .iter()
            .map(|test| TestKills {
                name: test.name.clone(),
                kills: mutants
                    .iter()
                    .filter(
                        |m| matches!(&m.fate, MutantFate::Killed { by, .. } if by.contains(&test.name)),
                    )
                    .map(|m| m.number)
                    .collect(),
            })
            .collect();
        MutantScore {
            model: options.model.display().to_string(),
            mutator: format!("universalmutator ({})", mutator()),
            generated,
            killed,
            survived,
            not_compiled: count(|f| matches!(f, MutantFate::NotCompiled { .. })),
            not_run: count(|f| matches!(f, MutantFate::NotRun | MutantFate::NotJudged { .. })),
            score: (killed + survived > 0).then(|| killed as f64 / (killed + survived) as f64),
            hunt: None,
            score_after: None,
            minimal: None,
            mutants,
            tests,
            elapsed,
        }
    }
}

impl MutantScore {
    /// The hunt's outcome added: each new test with the survivors it kills
    /// in the table, and the score after, which leaves the probably
    /// equivalent mutants out.
    pub fn add_hunt(&mut self, hunted: Vec<HuntedMutant>) {
        let mut killed_now = 0;
        let mut equivalent = 0;
        for h in &hunted {
            match &h.hunted {
                Hunted::NewTest { test, .. } | Hunted::KilledByNewTest { test } => {
                    killed_now += 1;
                    match self.tests.iter_mut().find(|t| t.name == *test) {
                        Some(kills) => kills.kills.push(h.number),
                        None => self.tests.push(TestKills {
                            name: test.clone(),
                            kills: vec![h.number],
                        }),
                    }
                }
                Hunted::ProbablyEquivalent { .. } => equivalent += 1,
                Hunted::NotHunted => {}
            }
        }
        let killed = self.killed + killed_now;
        let counted = self.killed + self.survived - equivalent;
        self.score_after = (counted > 0).then(|| killed as f64 / counted as f64);
        self.hunt = Some(hunted);
    }

    /// Each test and the mutants it kills, the new tests' included.
    pub fn kills(&self) -> Vec<(String, Vec<usize>)> {
        self.tests
            .iter()
            .map(|t| (t.name.clone(), t.kills.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests;
