//! Distilling a campaign into corpus rows: `lockstep corpus distill`.
//!
//! A campaign reaches far more of the code than the corpus that CI replays,
//! whose rows are the statements' samples and the findings so far. The
//! distiller runs a campaign's cases and keeps a small set that together
//! reach everything the campaign reached, each as a row with the reference's
//! answer (origin `coverage`), so that a replay alone checks every part of a
//! core that any generated case touches.
//!
//! What "reached" means depends on the binary. Built for coverage
//! ([`crate::coverage`]), a case's features are the code regions it runs,
//! each with a bucket of how often: the distiller keeps the cases that reach a
//! region, or a region as often, that no kept case does (libFuzzer's corpus
//! merge, in process). In any other build its features are the puzzle's rule
//! branches, a much coarser cover, and the report says so.
//!
//! The cover is greedy, cheapest cases first ([`replay_cost`]: the fuel the
//! reference burns on a case), then each kept case is shrunk by the puzzle's shrinker while it
//! keeps every feature it was kept for and core and reference still agree
//! on it; the shrunk cases are covered again, so that a case another shrunk
//! one now covers is dropped.

use super::{encode_for, Origin, Row};
use crate::generate::generate_case_within;
use crate::puzzle::{check, Agreement, CaseLimits, Puzzle};
use crate::shrink::Sideways;
use crate::shrink::{shrink_within, Budget};
use lockstep_core::Model;
use lockstep_reference::{Fuel, Naive};
use lockstep_search::seeds::CASE_BYTES;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// What a case is measured by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeatureKind {
    /// Code regions with a bucket of their hit counts ([`crate::coverage`]).
    Coverage,
    /// The puzzle's rule branches ([`Puzzle::rule_branches`]).
    RuleBranches,
}

impl std::fmt::Display for FeatureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FeatureKind::Coverage => "code regions (an instrumented build)",
            FeatureKind::RuleBranches => "rule branches (not an instrumented build)",
        })
    }
}

#[derive(Debug, Clone)]
pub struct DistillOptions {
    pub seed: u64,
    /// Cases generated at most.
    pub cases: u64,
    /// Time for the campaign part at most.
    pub seconds: f64,
    pub limits: CaseLimits,
    /// Shrink each kept case (while it keeps its features).
    pub shrink: bool,
}

/// What a distillation found: the rows, and how it got there.
#[derive(Debug, Clone)]
pub struct Distilled {
    pub kind: FeatureKind,
    pub cases: u64,
    /// Cases skipped: the reference ran out of fuel, or the two disagreed
    /// (a finding for `lockstep fuzz`, not a row to replay).
    pub timeouts: u64,
    pub disagreements: u64,
    pub features: usize,
    pub rows: Vec<Row>,
    pub elapsed: Duration,
}

/// The features of one case, and whether core and reference agree on it
/// (`None` when they do not, or the reference ran out of fuel).
fn measure<P: Puzzle>(case: &P::Case, kind: FeatureKind) -> Option<Vec<u32>> {
    crate::coverage::reset();
    let verdict = check::<P>(case);
    let mut features = match kind {
        FeatureKind::Coverage => crate::coverage::features(),
        FeatureKind::RuleBranches => {
            let bits = P::rule_branches(case);
            (0..64).filter(|i| bits >> i & 1 == 1).collect()
        }
    };
    features.sort_unstable();
    (verdict == Agreement::Agree).then_some(features)
}

/// What a case costs to replay, in a unit that orders one puzzle's cases:
/// the fuel the reference burns on it (all of it when it runs out), the
/// larger part of a replay's time. The judge input's length, which this
/// once was, said little of a duel search's matrices.
pub fn replay_cost<P: Puzzle>(case: &P::Case) -> u64 {
    let mut fuel = Fuel::new(P::FUEL);
    let _ = case.solve_naively(&mut fuel);
    P::FUEL - fuel.remaining()
}

/// Keeps, cheapest first ([`replay_cost`]), each case that adds a
/// feature: its index and the features it added.
fn greedy_cover<C>(cases: &[(C, Vec<u32>, u64)]) -> Vec<(usize, Vec<u32>)> {
    let mut order: Vec<usize> = (0..cases.len()).collect();
    order.sort_by_key(|&i| (cases[i].2, i));
    let mut covered = HashSet::new();
    let mut kept = Vec::new();
    for i in order {
        let new: Vec<u32> = cases[i]
            .1
            .iter()
            .copied()
            .filter(|f| !covered.contains(f))
            .collect();
        if !new.is_empty() {
            covered.extend(new.iter().copied());
            kept.push((i, new));
        }
    }
    kept
}

/// Runs the distillation of one puzzle (on this thread: the coverage
/// counters are the process's).
/// Cases a distillation measures at most: each is held until the cover is
/// made.
pub const MAX_MEASURED: usize = 1_000_000;

pub fn distill<P: Sideways>(options: &DistillOptions) -> Distilled {
    let kind = if crate::coverage::available() {
        FeatureKind::Coverage
    } else {
        FeatureKind::RuleBranches
    };
    let start = Instant::now();
    let deadline = lockstep_search::seeds::deadline_after(start, options.seconds);
    let mut buf = vec![0u8; CASE_BYTES];
    let mut measured = Vec::new();
    let (mut cases, mut skipped, mut disagreements) = (0, 0, 0);
    for index in 0..options.cases {
        // The cover is made over every case measured, held in memory: at
        // most MAX_MEASURED of them, whatever --cases and --seconds say.
        if deadline.is_some_and(|d| Instant::now() >= d)
            || measured.len() >= MAX_MEASURED
            || lockstep_stop::interrupted()
        {
            break;
        }
        let Some(case) =
            generate_case_within::<P>(options.seed, 0, index, &mut buf, options.limits)
        else {
            continue;
        };
        cases += 1;
        match measure::<P>(&case, kind) {
            Some(features) => {
                let cost = replay_cost::<P>(&case);
                measured.push((case, features, cost));
            }
            None if check::<P>(&case) == Agreement::Timeout => skipped += 1,
            None => disagreements += 1,
        }
    }
    let all: HashSet<u32> = measured.iter().flat_map(|m| m.1.iter().copied()).collect();
    let mut kept: Vec<(P::Case, Vec<u32>, u64)> = greedy_cover(&measured)
        .into_iter()
        .map(|(i, new)| {
            let (case, features, cost) = measured[i].clone();
            if !options.shrink {
                return (case, features, cost);
            }
            let case = {
                // Never dearer to replay than the case it came from.
                let keeps = |candidate: &P::Case| {
                    options.limits.admits::<P>(candidate)
                        && replay_cost::<P>(candidate) <= cost
                        && measure::<P>(candidate, kind)
                            .is_some_and(|f| new.iter().all(|n| f.binary_search(n).is_ok()))
                };
                let budget = Budget {
                    attempts: 2_000,
                    time: Some(Duration::from_secs(5)),
                };
                shrink_within::<P>(case, keeps, budget).case
            };
            let features = measure::<P>(&case, kind).unwrap_or_default();
            let cost = replay_cost::<P>(&case);
            (case, features, cost)
        })
        .collect();
    // The shrunk cases cover each other anew: keep those still needed.
    let recovered = greedy_cover(&kept);
    let keep: HashSet<usize> = recovered.iter().map(|(i, _)| *i).collect();
    let mut index = 0;
    kept.retain(|_| {
        index += 1;
        keep.contains(&(index - 1))
    });
    let rows = kept
        .iter()
        .enumerate()
        .filter_map(|(n, (case, features, _))| distilled_row::<P>(case, n, features.len(), kind))
        .collect();
    Distilled {
        kind,
        cases,
        timeouts: skipped,
        disagreements,
        features: all.len(),
        rows,
        elapsed: start.elapsed(),
    }
}

/// A kept case as a row: the reference's answer as expected.
fn distilled_row<P: Puzzle>(
    case: &P::Case,
    n: usize,
    features: usize,
    kind: FeatureKind,
) -> Option<Row> {
    let answer = case
        .solve_naively(&mut Fuel::new(P::FUEL.saturating_mul(4)))
        .ok()?
        .answer;
    Some(Row {
        name: format!("coverage-{}", n + 1),
        input: encode_for::<P>(&case.write_input()),
        expected: encode_for::<P>(&P::Case::write_answer(&answer)),
        origin: Origin::Coverage,
        note: format!(
            "lockstep corpus distill: {}, reaching {features} {}",
            P::describe(case),
            match kind {
                FeatureKind::Coverage => "code-region features",
                FeatureKind::RuleBranches => "rule branches",
            }
        ),
        signature: String::new(),
    })
}

impl std::fmt::Display for Distilled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} cases in {:.1} s, {} features of {}: {} rows",
            self.cases,
            self.elapsed.as_secs_f64(),
            self.features,
            self.kind,
            self.rows.len()
        )?;
        if self.timeouts > 0 {
            write!(f, "; {} skipped (the reference out of fuel)", self.timeouts)?;
        }
        if self.disagreements > 0 {
            write!(
                f,
                "; {} on which core and reference disagree, left out (run lockstep fuzz)",
                self.disagreements
            )?;
        }
        Ok(())
    }
}
