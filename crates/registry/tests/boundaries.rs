//! The rule boundaries of issue 30 in the first hundred cases: for each
//! boundary a published solution got wrong, its planted bug (the same wrong
//! rule) is caught within the first 100 cases of a stress run in at least 9
//! seeds of 10, under the original limits and the wide ones.
//!
//! The path is stress's with one job: case `i` of job 0 under the seed
//! ([`generate_case_within`]), the oracle's judge output
//! ([`oracle_output`]) against the wrong solver's, compared as text. That is
//! what `lockstep stress <puzzle> --limits original --cases 100` sees of a
//! program with the same bug, bar the process.

use lockstep_core::Model;
use lockstep_harness::campaign::Solver;
use lockstep_harness::generate::generate_case_within;
use lockstep_harness::puzzle::{CaseLimits, Puzzle};
use lockstep_registry::stress::{oracle_output, Oracle};
use lockstep_search::seeds::CASE_BYTES;

/// Cases per run, seeds per boundary, and how many seeds must catch it.
const CASES: u64 = 100;
const SEEDS: u64 = 10;
const CAUGHT: usize = 9;

/// The first case (0-based) of `seed` on which `wrong` writes another answer
/// than the oracle, within `CASES`.
fn first_caught<P: Puzzle>(wrong: Solver<P>, seed: u64, limits: CaseLimits) -> Option<u64> {
    let mut buf = vec![0u8; CASE_BYTES];
    (0..CASES).find(|&index| {
        let Some(case) = generate_case_within::<P>(seed, 0, index, &mut buf, limits) else {
            return false;
        };
        let expected = oracle_output::<P>(&case, Oracle::Core);
        let written = P::Case::write_answer(&wrong(&case).answer);
        expected.is_some_and(|e| e != written)
    })
}

/// Each bug over seeds 1..=10 under both limits: the seeds that catch it
/// and the median first case, printed; fewer than 9 of 10 fails the test.
fn caught_early<P: Puzzle>(bugs: &[(&str, Solver<P>)]) {
    let mut problems = Vec::new();
    for &(name, wrong) in bugs {
        for limits in [CaseLimits::Original, CaseLimits::Wide] {
            let mut firsts: Vec<u64> = (1..=SEEDS)
                .filter_map(|seed| first_caught::<P>(wrong, seed, limits))
                .collect();
            firsts.sort_unstable();
            let median = firsts.get(firsts.len() / 2).map_or(-1, |&i| i as i64 + 1);
            println!(
                "{} / {name} ({limits}): caught in {} of {SEEDS} seeds, median at case {median}, cases {firsts:?}",
                P::NAME,
                firsts.len()
            );
            if firsts.len() < CAUGHT {
                problems.push(format!(
                    "{} / {name} ({limits}): caught within {CASES} cases in {} of {SEEDS} seeds",
                    P::NAME,
                    firsts.len()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn checkers_boundaries_show_in_the_first_hundred_cases() {
    caught_early::<lockstep_harness::puzzles::Checkers>(&lockstep_planted::checkers::BOUNDARY_BUGS);
}

#[test]
fn new_game2_turn_limit_shows_in_the_first_hundred_cases() {
    let bugs = [lockstep_planted::new_game2::BUGS[3]];
    caught_early::<lockstep_harness::puzzles::NewGame2>(&bugs);
}

#[test]
fn robots_boundaries_show_in_the_first_hundred_cases() {
    caught_early::<lockstep_harness::puzzles::Robots>(&lockstep_planted::robots::BOUNDARY_BUGS);
}
