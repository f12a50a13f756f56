//! The test cargo-mutants runs on every mutant of the core (`.cargo/mutants.toml`):
//! what catches a core bug, in a few seconds.
//!
//! For each puzzle: the corpus replays, and a fixed-seed, fixed-count campaign
//! against the reference finds no disagreement. The counts are sized so that the
//! whole test takes a few seconds on two cores; `lockstep fuzz` and the full
//! suite go further. Checkers perft from the start is checked against the
//! published counts, the one oracle here that is not the reference.

use lockstep::campaign::{self, CampaignOptions};
use lockstep::puzzle::{CaseLimits, Puzzle};
use lockstep::puzzles::{Checkers, Duel, DuelSearch, Footholds, NewGame2, Robots};
use lockstep::replay;
use std::path::Path;

fn options(seed: u64, cases: u64) -> CampaignOptions {
    CampaignOptions {
        seconds: 120.0,
        seed,
        jobs: 2,
        max_cases: Some(cases),
        progress: false,
        stats: false,
        limits: CaseLimits::Wide,
    }
}

/// The corpus replays and `cases` generated cases agree; the problems found.
fn check<P: Puzzle>(cases: u64) -> Vec<String> {
    let mut problems = Vec::new();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    match replay::replay::<P>(&lockstep::corpus::path_for::<P>(&corpus)) {
        Ok(report) => problems.extend(
            report
                .failures
                .iter()
                .map(|f| format!("{} corpus row {}: {}", P::NAME, f.name, f.problem)),
        ),
        Err(e) => problems.push(format!("{}: {e:#}", P::NAME)),
    }
    let report = campaign::run::<P>(&options(2026, cases));
    if let Some((job, index, finding)) = report.finding {
        problems.push(format!(
            "{}: disagreement at job {job} case {index}: core {}, reference {}",
            P::NAME,
            finding.core_answer,
            finding.reference_answer
        ));
    }
    problems
}

#[test]
fn mutants_robots() {
    let problems = check::<Robots>(4_000);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn mutants_new_game2() {
    let problems = check::<NewGame2>(6_000);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn mutants_footholds() {
    let problems = check::<Footholds>(6_000);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn mutants_checkers() {
    let mut problems = check::<Checkers>(40_000);
    // English draughts perft from the start, as published (depths 1 to 7).
    let published = [7u64, 49, 302, 1469, 7361, 36768, 179_740];
    for (depth, &nodes) in (1..).zip(&published) {
        let counted = lockstep_core::checkers::perft_parallel(depth, 2);
        if counted != nodes {
            problems.push(format!("perft({depth}) = {counted}, published {nodes}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn mutants_duel() {
    let problems = check::<Duel>(60_000);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn mutants_duel_search() {
    let problems = check::<DuelSearch>(400);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
