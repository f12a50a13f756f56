//! The catalogue of planted bugs: every deliberately wrong solver of the tests
//! in one list, each hunted from many seeds by two drivers, with a budget
//! after which a run counts as censored: the stable fuzzer on one job (the
//! campaign `lockstep fuzz` runs) and the quickcheck property (cases from
//! quickcheck's `Gen` through the `Arbitrary` adapter, shrunk by quickcheck's
//! greedy walk over the adapter's `shrink`). Per bug and driver it reports
//! how many runs found it, the median and the restricted mean time to detect,
//! the median cases to detect and the shrunk size; a Mann-Whitney U test
//! compares the two drivers on each bug (`stats.rs`). The table it prints is
//! the README's.
//!
//! The wrong solvers live in the `lockstep-planted` crate (`planted/`, one
//! module per puzzle with its `BUGS`), where a cargo-fuzz target can reach
//! them too; this list only gathers them. In the suite, every bug is hunted
//! by the stable driver from five seeds and must be found by each; the full
//! table (20 seeds, both drivers) is the ignored test
//! `the_planted_bug_table_over_20_seeds`, run by hand:
//! `cargo test --test lockstep planted_bug_table -- --ignored --nocapture`.
//! The cargo-fuzz driver is not among them: it runs the real core only.

mod stats;

use lockstep::campaign::{self, CampaignOptions, Solver};
use lockstep::puzzle::{check_with, CaseLimits, Puzzle};
use lockstep::puzzles::NewGame2;
use lockstep::quickcheck_cases::Generated;
use lockstep_core::Model;
use quickcheck::{Arbitrary, Gen};
use stats::{mann_whitney, median, restricted_mean};
use std::time::Instant;

/// The two drivers a planted bug is hunted by.
#[derive(Clone, Copy, PartialEq)]
enum Driver {
    Stable,
    Quickcheck,
}

/// One hunt of a bug: by a driver, from a seed, within a budget.
type HuntOnce = Box<dyn Fn(Driver, u64, &Budget) -> Hunted>;

/// One planted bug and how to hunt it once.
struct Planted {
    puzzle: &'static str,
    bug: &'static str,
    hunt: HuntOnce,
}

/// When a run gives up: after `seconds`, or after `cases` (a safety net).
struct Budget {
    seconds: f64,
    cases: u64,
}

/// One run: the time to the first disagreement (infinite when censored),
/// the cases up to it, and the shrunk case's size in words.
struct Hunted {
    seconds: f64,
    cases: u64,
    shrunk: Option<String>,
}

fn planted<P: Puzzle>(bug: &'static str, solver: Solver<P>) -> Planted {
    Planted {
        puzzle: P::NAME,
        bug,
        hunt: Box::new(move |driver, seed, budget| match driver {
            Driver::Stable => stable::<P>(solver, seed, budget),
            Driver::Quickcheck => by_quickcheck::<P>(solver, budget),
        }),
    }
}

/// The stable fuzzer on one job from `seed`: the campaign's own loop.
fn stable<P: Puzzle>(solver: Solver<P>, seed: u64, budget: &Budget) -> Hunted {
    let options = CampaignOptions {
        shard: lockstep::campaign::Shard::WHOLE,
        seconds: budget.seconds,
        seed,
        jobs: 1,
        max_cases: Some(budget.cases),
        progress: false,
        stats: false,
        limits: CaseLimits::Wide,
        keep_going: false,
    };
    let report = campaign::run_campaign_with::<P>(&options, solver);
    match report.finding {
        // One job: the finding's index is the number of cases before it.
        Some((_, index, finding)) => Hunted {
            seconds: report.elapsed.as_secs_f64(),
            cases: index + 1,
            shrunk: Some(P::describe(&finding.shrunk.case)),
        },
        None => Hunted {
            seconds: f64::INFINITY,
            cases: report.tally.cases,
            shrunk: None,
        },
    }
}

/// quickcheck's way: cases from a fresh `Gen` (seeded by quickcheck, not by
/// us: its runs are independent draws) until one disagrees, then its greedy
/// shrink, the first candidate that still disagrees, at most 2,000 tries.
fn by_quickcheck<P: Puzzle>(solver: Solver<P>, budget: &Budget) -> Hunted {
    let fails = |case: &P::Case| check_with::<P>(case, solver, P::FUEL).is_divergence();
    let mut g = Gen::new(100);
    let start = Instant::now();
    let mut cases = 0;
    while cases < budget.cases && start.elapsed().as_secs_f64() < budget.seconds {
        let case = Generated::<P>::arbitrary(&mut g);
        cases += 1;
        if !fails(&case.0) {
            continue;
        }
        let seconds = start.elapsed().as_secs_f64();
        let (mut smallest, mut tries) = (case, 0);
        'shrink: while tries < 2_000 {
            for candidate in smallest.shrink() {
                tries += 1;
                if fails(&candidate.0) {
                    smallest = candidate;
                    continue 'shrink;
                }
                if tries >= 2_000 {
                    break;
                }
            }
            break;
        }
        return Hunted {
            seconds,
            cases,
            shrunk: Some(P::describe(&smallest.0)),
        };
    }
    Hunted {
        seconds: f64::INFINITY,
        cases,
        shrunk: None,
    }
}

/// Every planted bug of every puzzle: each puzzle's test module's `bugs()`,
/// over the one list of puzzles.
fn catalogue() -> Vec<Planted> {
    macro_rules! catalogue {
        ($($ty:ident $m:ident [$($flag:ident)?],)*) => {{
            let mut all = Vec::new();
            $(all.extend(
                lockstep_planted::$m::bugs()
                    .into_iter()
                    .map(|(bug, solver)| planted::<lockstep::puzzles::$ty>(bug, solver)),
            );)*
            all
        }};
    }
    lockstep::for_each_puzzle!(catalogue)
}

/// A driver's runs of one bug, as the table shows them.
struct Row {
    found: usize,
    runs: usize,
    times: Vec<f64>,
    cases: Vec<f64>,
    shrunk: String,
}

fn hunt_all(planted: &Planted, driver: Driver, seeds: u64, budget: &Budget) -> Row {
    let runs: Vec<Hunted> = (1..=seeds)
        .map(|seed| (planted.hunt)(driver, seed, budget))
        .collect();
    let found: Vec<&Hunted> = runs.iter().filter(|r| r.seconds.is_finite()).collect();
    Row {
        found: found.len(),
        runs: runs.len(),
        times: runs.iter().map(|r| r.seconds).collect(),
        cases: found.iter().map(|r| r.cases as f64).collect(),
        shrunk: found
            .first()
            .and_then(|r| r.shrunk.clone())
            .unwrap_or_else(|| "-".to_string()),
    }
}

fn seconds(value: Option<f64>, budget: &Budget) -> String {
    match value {
        Some(t) if t.is_finite() => format!("{t:.3} s"),
        _ => format!("> {:.0} s", budget.seconds),
    }
}

/// The table over `seeds` seeds with the given drivers, printed; the
/// problems (a bug some run missed, a median of a second or more) returned.
fn table(seeds: u64, budget: &Budget, drivers: &[Driver]) -> Vec<String> {
    let mut problems = Vec::new();
    println!(
        "| puzzle | planted bug | driver | found | time to detect: median, restricted mean | cases to detect, median | shrunk to | U test p (stable vs quickcheck) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for planted in catalogue() {
        let rows: Vec<(Driver, Row)> = drivers
            .iter()
            .map(|&d| (d, hunt_all(&planted, d, seeds, budget)))
            .collect();
        let p = match rows.as_slice() {
            [(_, a), (_, b)] => {
                let censored =
                    |t: &[f64]| -> Vec<f64> { t.iter().map(|x| x.min(budget.seconds)).collect() };
                format!(
                    "{:.3}",
                    mann_whitney(&censored(&a.times), &censored(&b.times)).1
                )
            }
            _ => "-".to_string(),
        };
        for (driver, row) in &rows {
            let name = match driver {
                Driver::Stable => "stable, 1 job",
                Driver::Quickcheck => "quickcheck",
            };
            println!(
                "| {} | {} | {name} | {}/{} | {}, {:.3} s | {} | {} | {} |",
                planted.puzzle,
                planted.bug,
                row.found,
                row.runs,
                seconds(median(&row.times), budget),
                restricted_mean(&row.times, budget.seconds),
                median(&row.cases).map_or("-".to_string(), |c| format!("{c:.0}")),
                row.shrunk,
                if *driver == Driver::Stable { &p } else { "" },
            );
            if row.found < row.runs {
                problems.push(format!(
                    "{} / {} ({name}): found in {} of {} runs",
                    planted.puzzle, planted.bug, row.found, row.runs
                ));
            }
            if *driver == Driver::Stable && median(&row.times).is_none_or(|t| t >= 1.0) {
                problems.push(format!(
                    "{} / {} ({name}): median time to detect 1 s or more",
                    planted.puzzle, planted.bug
                ));
            }
        }
    }
    problems
}

#[test]
fn every_planted_bug_is_found_from_every_seed() {
    let budget = Budget {
        seconds: 60.0,
        cases: 400_000,
    };
    let problems = table(5, &budget, &[Driver::Stable]);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The README's table: 20 seeds, both drivers, a 10 s budget a run.
#[test]
#[ignore = "minutes: run by hand for the README's table"]
fn the_planted_bug_table_over_20_seeds() {
    let budget = Budget {
        seconds: 10.0,
        cases: 4_000_000,
    };
    let problems = table(20, &budget, &[Driver::Stable, Driver::Quickcheck]);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Both drivers find a quick bug, and the quickcheck driver's shrink leaves
/// a small case (the table's other driver, kept honest in the suite).
#[test]
fn the_quickcheck_driver_finds_and_shrinks_a_planted_bug() {
    let budget = Budget {
        seconds: 30.0,
        cases: 100_000,
    };
    let (name, solver) = lockstep_planted::new_game2::BUGS[0];
    for _ in 0..3 {
        let run = by_quickcheck::<NewGame2>(solver, &budget);
        assert!(run.seconds.is_finite(), "{name}: not found");
        let shrunk = run.shrunk.expect("a found run is shrunk");
        assert!(shrunk.contains("4 pieces"), "{name}: shrunk to {shrunk}");
    }
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

/// Neither driver finds the real core within a small budget: censored runs
/// are counted as such, not as finds.
#[test]
fn a_run_that_finds_nothing_is_censored() {
    let budget = Budget {
        seconds: 5.0,
        cases: 300,
    };
    let core: Solver<NewGame2> = <NewGame2 as Puzzle>::Case::solve;
    let row = hunt_all(
        &planted::<NewGame2>("the real core", core),
        Driver::Stable,
        2,
        &budget,
    );
    assert_eq!((row.found, row.runs), (0, 2));
    assert_eq!(median(&row.times), Some(f64::INFINITY));
    let run = by_quickcheck::<NewGame2>(core, &budget);
    assert!(run.seconds.is_infinite() && run.cases == 300);
}
