//! `lockstep verify`'s outcome: one serde-derived value a run, behind both
//! the text printed as each puzzle ends and the JSON document.

use super::*;

/// What `lockstep verify` found, the one outcome behind its text (each
/// puzzle's [`Verified`], printed as it ends) and its JSON document.
#[derive(Serialize)]
pub(super) struct VerifyOutcome {
    pub(super) limits: String,
    pub(super) symmetry: bool,
    pub(super) shard: String,
    pub(super) jobs: usize,
    pub(super) puzzles: Vec<Verified>,
    pub(super) stopped_by_signal: Option<i32>,
}

/// One puzzle's levels, and what they prove: as a table (its `Display`)
/// and in the JSON document.
#[derive(Serialize)]
pub(super) struct Verified {
    pub(super) puzzle: &'static str,
    /// What a size holds.
    pub(super) size: &'static str,
    pub(super) from: u32,
    pub(super) up_to: u32,
    pub(super) verified: bool,
    /// The first size a stopped run did not verify whole: where `--from`
    /// resumes it (null when nothing was cut short).
    pub(super) resume_from: Option<u32>,
    /// With `--case`: the one case checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) case: Option<String>,
    pub(super) levels: Vec<LevelCertificate>,
    /// Each level against the recorded certificate, when there was one.
    pub(super) against_certificate: Option<Vec<AgainstLevel>>,
    pub(super) cases: u64,
    pub(super) checked: u64,
    pub(super) seconds: f64,
    pub(super) bugs: Vec<VerifiedBug>,
    /// The rule branches the checked cases reach.
    #[serde(flatten)]
    pub(super) branches: Branches,
    /// Each level against the recorded certificate.
    #[serde(skip)]
    pub(super) against: Vec<AgainstRecord>,
    #[serde(skip)]
    pub(super) shard: Shard,
}

/// The rule branches a puzzle's run reaches ([`lockstep_harness::puzzle::Puzzle::rule_branches`]):
/// how many of them, which not, and with `--stats` how many checked cases
/// reach each, in all and by level.
#[derive(Serialize)]
pub(super) struct Branches {
    /// Branches reached by at least one checked case, of `branches`.
    pub(super) branches_reached: usize,
    pub(super) branches: usize,
    /// The branches no checked case reached, in the puzzle's order.
    pub(super) not_reached: Vec<&'static str>,
    /// Branches the levels are not asked to reach, with where each is
    /// checked instead: listed, never counted in `branches`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) checked_elsewhere: Vec<Elsewhere>,
    /// Each branch and the checked cases that reached it.
    pub(super) rule_branches: Vec<lockstep_registry::BranchReached>,
    /// With `--stats`: each level's size and its checked cases that reach
    /// each branch, in `rule_branches`' order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) level_branches: Vec<LevelBranches>,
}

/// A branch checked elsewhere than by the levels, and where.
#[derive(Serialize)]
pub(super) struct Elsewhere {
    pub(super) branch: &'static str,
    pub(super) checked_by: &'static str,
}

/// One level's counts of checked cases reaching each rule branch.
#[derive(Serialize)]
pub(super) struct LevelBranches {
    pub(super) size: u32,
    pub(super) cases: Vec<u64>,
}

impl Branches {
    pub(super) fn of(
        summary: &lockstep_registry::CampaignSummary,
        elsewhere: &[(&'static str, &'static str)],
        stats: bool,
    ) -> Branches {
        let rule_branches: Vec<lockstep_registry::BranchReached> = summary
            .rule_branches
            .iter()
            .map(|&(branch, cases)| lockstep_registry::BranchReached { branch, cases })
            .collect();
        let asked = |branch: &str| elsewhere.iter().all(|&(b, _)| b != branch);
        let not_reached = rule_branches
            .iter()
            .filter(|b| b.cases == 0 && asked(b.branch))
            .map(|b| b.branch)
            .collect::<Vec<_>>();
        let checked_elsewhere: Vec<Elsewhere> = elsewhere
            .iter()
            .map(|&(branch, checked_by)| Elsewhere { branch, checked_by })
            .collect();
        let level_branches = match stats {
            true => summary
                .level_branches
                .iter()
                .map(|(size, cases)| LevelBranches {
                    size: *size,
                    cases: cases.clone(),
                })
                .collect(),
            false => Vec::new(),
        };
        let branches = rule_branches.len() - checked_elsewhere.len();
        let reached = rule_branches
            .iter()
            .filter(|b| b.cases > 0 && asked(b.branch))
            .count();
        Branches {
            branches_reached: reached,
            branches,
            not_reached,
            checked_elsewhere,
            rule_branches,
            level_branches,
        }
    }
}

impl std::fmt::Display for Branches {
    /// With `--stats`, the table: a row a branch, a column a level, and the
    /// whole run's; then the branches no case reached.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.level_branches.is_empty() {
            write!(f, "  {:<44}", "checked cases reaching each rule branch")?;
            for level in &self.level_branches {
                write!(f, " {:>9}", format!("size {}", level.size))?;
            }
            writeln!(f, " {:>10}", "all")?;
            for (i, branch) in self.rule_branches.iter().enumerate() {
                write!(f, "  {:<44}", branch.branch)?;
                for level in &self.level_branches {
                    write!(f, " {:>9}", level.cases.get(i).copied().unwrap_or(0))?;
                }
                let elsewhere = self
                    .checked_elsewhere
                    .iter()
                    .any(|e| e.branch == branch.branch);
                let mark = if elsewhere {
                    "checked elsewhere"
                } else if branch.cases == 0 {
                    "not reached"
                } else {
                    ""
                };
                writeln!(f, " {:>10} {mark}", branch.cases)?;
            }
        }
        if !self.not_reached.is_empty() {
            writeln!(
                f,
                "not reached by any case: {}",
                self.not_reached.join("; ")
            )?;
        }
        for e in &self.checked_elsewhere {
            writeln!(
                f,
                "not asked of the levels: {} ({})",
                e.branch, e.checked_by
            )?;
        }
        Ok(())
    }
}

/// A disagreement, and where its row went.
#[derive(Serialize)]
pub(super) struct VerifiedBug {
    pub(super) bug: BugSummary,
    pub(super) recorded: String,
}

/// One level against the recorded certificate, as the JSON says it.
#[derive(Serialize)]
pub(super) struct AgainstLevel {
    pub(super) size: u32,
    /// `same`, `differs`, `not recorded` or `cut short` (a signal stopped
    /// the run inside the level).
    pub(super) against: &'static str,
    pub(super) recorded_digest: Option<String>,
}

impl AgainstLevel {
    pub(super) fn of(level: &LevelCertificate, against: &AgainstRecord) -> AgainstLevel {
        let (against, recorded_digest) = match against {
            AgainstRecord::Same => ("same", None),
            AgainstRecord::Differs(r) => ("differs", Some(r.digest.clone())),
            AgainstRecord::NotRecorded => ("not recorded", None),
            AgainstRecord::CutShort => ("cut short", None),
        };
        AgainstLevel {
            size: level.size,
            against,
            recorded_digest,
        }
    }
}

impl std::fmt::Display for Verified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}: size = {}", self.puzzle, self.size)?;
        writeln!(
            f,
            "{:>6} {:>12} {:>12} {:>8} {:>8}  {:<16} {:<9} {:>9}",
            "size", "cases", "checked", "skipped", "differ", "digest", "recorded", "seconds"
        )?;
        for (l, against) in self.levels.iter().zip(&self.against) {
            let against = match against {
                AgainstRecord::Same => "same",
                AgainstRecord::Differs(_) => "DIFFERS",
                AgainstRecord::NotRecorded => "-",
                AgainstRecord::CutShort => "cut short",
            };
            writeln!(
                f,
                "{:>6} {:>12} {:>12} {:>8} {:>8}  {:016x} {against:<9} {:>9.2}",
                l.size,
                l.cases,
                l.classes,
                l.skipped,
                l.disagreements,
                l.digest,
                l.seconds()
            )?;
        }
        for l in &self.levels {
            if let Some(index) = l.first_unreadable {
                writeln!(
                    f,
                    "size {}: {} of the cases whose judge format was checked (every case of the \
                     first indexes, then about one in {READ_BACK_EVERY}) did not read back as \
                     themselves: the input is written wrong or read wrong. The first is `size {} \
                     case {index}`.",
                    l.size, l.unreadable, l.size
                )?;
            }
        }
        for (l, against) in self.levels.iter().zip(&self.against) {
            if let AgainstRecord::Differs(recorded) = against {
                writeln!(
                    f,
                    "size {}: {} cases, {} checked, digest {:016x}; recorded {} cases, {} checked, \
                     digest {}. Core and reference agree, so what changed is code they share (the \
                     model, the judge I/O, the trace vocabulary, the duel's evaluation) or the \
                     level itself; if the change is meant, record it again (--record FILE).",
                    l.size, l.cases, l.classes, l.digest, recorded.cases, recorded.classes,
                    recorded.digest
                )?;
            }
        }
        if let Some(case) = &self.case {
            return match self.bugs.is_empty() {
                true => writeln!(
                    f,
                    "checked only `{case}`: core and reference agree (a single case verifies no level)"
                ),
                false => writeln!(f, "checked only `{case}`: core and reference disagree"),
            };
        }
        write!(f, "{}", self.branches)?;
        let cases: u64 = self.levels.iter().map(|l| l.cases).sum();
        let mut part = match self.shard == Shard::WHOLE {
            true => String::new(),
            false => format!(" of shard {}", self.shard),
        };
        if self.from > 1 {
            part += &format!(" from size {}", self.from);
        }
        // Both figures: the cases both sides ran, and with symmetry every
        // case of their classes, each image run by the core alone.
        let run: u64 = self.levels.iter().map(|l| l.classes).sum();
        let counted = match run == cases {
            true => format!("{} run", lockstep_text::counted(run, "case")),
            false => format!(
                "{} run by both sides, {cases} with their symmetric images run by the core",
                lockstep_text::counted(run, "case")
            ),
        };
        match self.verified {
            true => writeln!(
                f,
                "verified: every case{part} up to size {} agrees: {counted}, reaching {} of the {} rule branches",
                self.up_to,
                self.branches.branches_reached,
                self.branches.branches
            ),
            false => writeln!(f, "not verified up to size {}", self.up_to),
        }
    }
}
