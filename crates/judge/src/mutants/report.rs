//! The kill table of a mutant run, as BAPCtools' `bt run --table` shows
//! which test rejects which wrong submission: per test, the mutants it
//! kills; per mutant, the first test that kills it and the verdict, or that
//! it survived (with its change); then the score.

use super::{MutantFate, MutantScore};
use std::fmt;

/// At most this many mutant numbers on a test's line.
const LISTED: usize = 24;

impl fmt::Display for MutantScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kill_table(f)?;
        self.extras(f)?;
        self.summary(f)
    }
}

impl MutantScore {
    /// Per test the mutants it kills, per mutant its fate.
    fn kill_table(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .tests
            .iter()
            .map(|t| t.name.chars().count())
            .max()
            .unwrap_or(4);
        writeln!(f, "tests, and the mutants each kills:")?;
        for test in &self.tests {
            let mut listed: Vec<String> = test
                .kills
                .iter()
                .take(LISTED)
                .map(|n| format!("#{n}"))
                .collect();
            if test.kills.len() > LISTED {
                listed.push(format!("and {} more", test.kills.len() - LISTED));
            }
            let line = format!(
                "  {:width$}  kills {:>4}  {}",
                test.name,
                test.kills.len(),
                listed.join(" ")
            );
            writeln!(f, "{}", line.trim_end())?;
        }
        writeln!(f, "mutants:")?;
        for m in &self.mutants {
            let fate = match &m.fate {
                MutantFate::Killed { first, verdict, by } => {
                    format!("killed by {first} ({verdict}), {} in all", by.len())
                }
                MutantFate::Survived => "SURVIVED".to_string(),
                MutantFate::NotCompiled { .. } => "did not compile".to_string(),
                MutantFate::NotRun => "not run (stopped)".to_string(),
                MutantFate::NotJudged { error } => format!("not judged: {error}"),
            };
            writeln!(f, "  #{:<4} line {:<4} {fate}", m.number, m.line)?;
        }
        Ok(())
    }

    /// The survivors with their change, the hunt, the fewest tests.
    fn extras(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let survivors: Vec<_> = self
            .mutants
            .iter()
            .filter(|m| m.fate == MutantFate::Survived)
            .collect();
        if !survivors.is_empty() {
            writeln!(f, "survivors (no test rejects them):")?;
            for m in survivors {
                let change = match (m.was.is_empty(), m.now.is_empty()) {
                    (true, false) => format!("inserted `{}`", m.now),
                    (false, true) => format!("`{}` deleted", m.was),
                    _ => format!("`{}` -> `{}`", m.was, m.now),
                };
                writeln!(f, "  #{:<4} line {}: {change}", m.number, m.line)?;
            }
        }
        if let Some(hunted) = &self.hunt {
            writeln!(f, "survivors hunted with the generator:")?;
            for h in hunted {
                writeln!(f, "  #{:<4} {}", h.number, h.hunted)?;
            }
        }
        if let Some(minimal) = &self.minimal {
            writeln!(
                f,
                "the fewest tests that kill all the set kills ({} of {}): {}",
                minimal.len(),
                self.tests.len(),
                minimal.join(" ")
            )?;
        }
        Ok(())
    }

    /// The last line: the counts and the score.
    fn summary(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "test --mutants: {} mutants of the {} the mutator wrote: {} killed, {} survived, {} did not compile",
            self.mutants.len(),
            self.generated,
            self.killed,
            self.survived,
            self.not_compiled
        )?;
        if self.not_run > 0 {
            write!(f, ", {} not run (stopped)", self.not_run)?;
        }
        match self.score {
            Some(score) => {
                write!(
                    f,
                    "; score {:.1}% ({} of {})",
                    score * 100.0,
                    self.killed,
                    self.killed + self.survived
                )?;
                if let Some(after) = self.score_after {
                    write!(
                        f,
                        ", {:.1}% with the new tests, less the probably equivalent",
                        after * 100.0
                    )?;
                }
                writeln!(f, "; {:.1} s", self.elapsed.as_secs_f64())
            }
            None => writeln!(
                f,
                "; no score (no mutant compiled and ran); {:.1} s",
                self.elapsed.as_secs_f64()
            ),
        }
    }
}

/// What the hunt made of a survivor, in words.
impl fmt::Display for super::Hunted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::Hunted;
        match self {
            Hunted::NewTest {
                test,
                seed,
                verdict,
                bytes,
            } => write!(f, "new test {test} ({verdict}; from seed {seed}, shrunk to {bytes} bytes)"),
            Hunted::KilledByNewTest { test } => write!(f, "killed by the new test {test}"),
            Hunted::ProbablyEquivalent { cases, first_seed } => write!(
                f,
                "probably equivalent: no difference from the oracle in {cases} generated cases (seeds {first_seed} on)"
            ),
            Hunted::NotHunted => f.write_str("not hunted (stopped)"),
        }
    }
}
