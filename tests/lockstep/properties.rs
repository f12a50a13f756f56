//! quickcheck: core agrees with reference on cases from the puzzles' own generators.
//! A failure prints the shrunk case as a ready corpus row.

use lockstep::puzzles::{Checkers, Duel, DuelSearch, Footholds, NewGame2, Robots};
use lockstep::quick::{core_agrees_with_reference, Generated};
use quickcheck::{QuickCheck, TestResult};

#[test]
fn new_game2_core_agrees_with_reference() {
    QuickCheck::new().tests(3000).max_tests(30_000).quickcheck(
        core_agrees_with_reference::<NewGame2> as fn(Generated<NewGame2>) -> TestResult,
    );
}

#[test]
fn robots_core_agrees_with_reference() {
    QuickCheck::new()
        .tests(1000)
        .max_tests(10_000)
        .quickcheck(core_agrees_with_reference::<Robots> as fn(Generated<Robots>) -> TestResult);
}

#[test]
fn checkers_core_agrees_with_reference() {
    QuickCheck::new().tests(3000).max_tests(30_000).quickcheck(
        core_agrees_with_reference::<Checkers> as fn(Generated<Checkers>) -> TestResult,
    );
}

#[test]
fn footholds_core_agrees_with_reference() {
    QuickCheck::new().tests(3000).max_tests(30_000).quickcheck(
        core_agrees_with_reference::<Footholds> as fn(Generated<Footholds>) -> TestResult,
    );
}

#[test]
fn duel_core_agrees_with_reference() {
    QuickCheck::new()
        .tests(3000)
        .max_tests(30_000)
        .quickcheck(core_agrees_with_reference::<Duel> as fn(Generated<Duel>) -> TestResult);
}

#[test]
fn duel_search_core_agrees_with_reference() {
    QuickCheck::new().tests(300).max_tests(3000).quickcheck(
        core_agrees_with_reference::<DuelSearch> as fn(Generated<DuelSearch>) -> TestResult,
    );
}
