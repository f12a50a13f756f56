//! The catalogue of planted bugs: every deliberately wrong solver of the tests
//! in one list, each run through the stable fuzzer (one job) from five seeds,
//! with the time and cases to the first disagreement and the size of the case
//! it shrinks to. The table it prints is the README's.
//!
//! Each puzzle's module keeps its wrong solvers beside the rules they break
//! (`BUGS`); this list only gathers them. A bug that no seed finds fails the test.

use lockstep::campaign::{self, CampaignOptions, Solver};
use lockstep::puzzle::{CaseLimits, Puzzle};
use lockstep::puzzles::NewGame2;
use lockstep_core::Model;

/// One planted bug and how to hunt it from a seed.
struct Planted {
    puzzle: &'static str,
    bug: &'static str,
    find_and_shrink: Box<dyn Fn(u64) -> Option<Detection>>,
}

/// A campaign's first finding: how long it took, after how many cases, and
/// what it shrank to.
struct Detection {
    seconds: f64,
    cases: u64,
    shrunk: String,
}

/// At most this many cases per hunt (far above what any bug needs).
const MAX_CASES: u64 = 400_000;
const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

fn planted<P: Puzzle>(bug: &'static str, solver: Solver<P>) -> Planted {
    Planted {
        puzzle: P::NAME,
        bug,
        find_and_shrink: Box::new(move |seed| {
            let options = CampaignOptions {
                shard: lockstep::campaign::Shard::WHOLE,
                seconds: 120.0,
                seed,
                jobs: 1,
                max_cases: Some(MAX_CASES),
                progress: false,
                stats: false,
                limits: CaseLimits::Wide,
                keep_going: false,
            };
            let report = campaign::run_campaign_with::<P>(&options, solver);
            let (_, index, finding) = report.finding?;
            Some(Detection {
                seconds: report.elapsed.as_secs_f64(),
                // One job: the finding's index is the number of cases before it.
                cases: index + 1,
                shrunk: P::describe(&finding.shrunk.case),
            })
        }),
    }
}

/// Every planted bug of every puzzle: each puzzle's test module's `bugs()`,
/// over the one list of puzzles.
fn catalogue() -> Vec<Planted> {
    macro_rules! catalogue {
        ($($ty:ident $m:ident [$($flag:ident)?],)*) => {{
            let mut all = Vec::new();
            $(all.extend(
                crate::$m::bugs()
                    .into_iter()
                    .map(|(bug, solver)| planted::<lockstep::puzzles::$ty>(bug, solver)),
            );)*
            all
        }};
    }
    lockstep::for_each_puzzle!(catalogue)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[test]
fn every_planted_bug_is_found_from_every_seed() {
    let mut problems = Vec::new();
    println!("| puzzle | planted bug | found | time to detect, median (worst) | cases to the first, median | shrunk to (seed 1) |");
    println!("|---|---|---|---|---|---|");
    for planted in catalogue() {
        let found: Vec<Detection> = SEEDS
            .iter()
            .filter_map(|&s| (planted.find_and_shrink)(s))
            .collect();
        if found.len() < SEEDS.len() {
            problems.push(format!(
                "{} / {}: found from {} of {} seeds",
                planted.puzzle,
                planted.bug,
                found.len(),
                SEEDS.len()
            ));
        }
        if found.is_empty() {
            continue;
        }
        let times: Vec<f64> = found.iter().map(|d| d.seconds).collect();
        let worst = times.iter().copied().fold(0.0, f64::max);
        let cases = median(found.iter().map(|d| d.cases as f64).collect());
        println!(
            "| {} | {} | {}/{} | {:.3} s ({:.3} s) | {cases:.0} | {} |",
            planted.puzzle,
            planted.bug,
            found.len(),
            SEEDS.len(),
            median(times),
            worst,
            found[0].shrunk
        );
        if worst > 10.0 {
            problems.push(format!(
                "{} / {}: {worst:.1} s to detect",
                planted.puzzle, planted.bug
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The harness is not a check that cannot fail: a "bug" that is the real core
/// is never found, and says so.
#[test]
#[should_panic(expected = "the real core: not found in 300 cases")]
fn the_planted_bug_harness_fails_a_bug_it_cannot_find() {
    use crate::support::{planted_bugs, Hunt, PlantedBug};
    let bugs = [PlantedBug::<NewGame2> {
        name: "the real core",
        solver: Box::new(<NewGame2 as Puzzle>::Case::solve),
        small: Box::new(|_| true),
    }];
    let hunt = Hunt {
        fuel: NewGame2::FUEL,
        max_cases: 300,
        max_findings: 1,
        within: &|_| true,
        describe: &|c| NewGame2::describe(c),
    };
    planted_bugs(&hunt, &bugs);
}
