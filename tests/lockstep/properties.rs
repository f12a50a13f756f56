//! quickcheck: core agrees with reference on cases from the puzzles' own generators.
//! A failure prints the shrunk case as a ready corpus row.

use lockstep::puzzle::Puzzle;
use lockstep::puzzles::{Checkers, Duel, DuelSearch, Footholds, NewGame2, Robots};
use lockstep::quick::{core_agrees_with_reference, Generated};
use quickcheck::{QuickCheck, TestResult};

/// `tests` agreeing cases of `P`. A case the reference cannot finish within its
/// fuel is discarded, not passed; at least half of `tests` must really pass, so a
/// generator whose cases all ran out of fuel fails instead of passing empty.
fn agrees<P: Puzzle>(tests: u64) {
    QuickCheck::new()
        .tests(tests)
        .max_tests(10 * tests)
        .min_tests_passed(tests / 2)
        .quickcheck(core_agrees_with_reference::<P> as fn(Generated<P>) -> TestResult);
}

#[test]
fn new_game2_core_agrees_with_reference() {
    agrees::<NewGame2>(3000);
}

#[test]
fn robots_core_agrees_with_reference() {
    agrees::<Robots>(1000);
}

#[test]
fn checkers_core_agrees_with_reference() {
    agrees::<Checkers>(3000);
}

#[test]
fn footholds_core_agrees_with_reference() {
    agrees::<Footholds>(3000);
}

#[test]
fn duel_core_agrees_with_reference() {
    agrees::<Duel>(3000);
}

#[test]
fn duel_search_core_agrees_with_reference() {
    agrees::<DuelSearch>(300);
}
