//! A puzzle that answers and counts its rule branches in one core run
//! ([`Puzzle::solve_counting`], what verify and `fuzz --stats` use) must
//! give what the two give apart: the core's own run ([`Model::solve`]),
//! answer and digest, and the branches of [`Puzzle::rule_branches`]. Held
//! on generated cases (games of many lines, cases of many instances) and on
//! cases spread over every level of the CI scope.

use lockstep_core::Model;
use lockstep_harness::campaign::generate_case;
use lockstep_harness::puzzle::Puzzle;
use lockstep_harness::puzzles::{Checkers, Duel, MatrixGame, Robots};
use lockstep_search::seeds::CASE_BYTES;

/// Generated cases, then about `per_level` cases of each level of the CI
/// scope, spread over its indexes.
fn cases<P: Puzzle>(generated: u64, per_level: u64) -> Vec<P::Case> {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut out: Vec<P::Case> = (0..generated)
        .filter_map(|index| generate_case::<P>(11, 0, index, &mut buf))
        .collect();
    for size in 1..=P::LEVELS.ci {
        let span = (P::LEVELS.span)(size);
        let stride = (span / per_level).max(1);
        out.extend(
            (0..span)
                .step_by(stride as usize)
                .filter_map(|i| (P::LEVELS.case)(size, i)),
        );
    }
    out
}

/// The one run against the two apart on every case of [`cases`]; the
/// branches reached, for the caller to hold to what the cases must reach.
fn counts_as_apart<P: Puzzle>(generated: u64, per_level: u64) -> u64 {
    let mut reached = 0;
    let all = cases::<P>(generated, per_level);
    assert!(all.len() as u64 > generated, "{}: too few cases", P::NAME);
    for case in &all {
        let (run, bits) = P::solve_counting(case)
            .unwrap_or_else(|| panic!("{} counts in its core's run", P::NAME));
        let input = case.write_input();
        assert_eq!(run, case.solve(), "{}: the answer of\n{input}", P::NAME);
        assert_eq!(
            bits,
            P::rule_branches(case),
            "{}: the branches of\n{input}",
            P::NAME
        );
        reached |= bits;
    }
    reached
}

/// Every branch the cases reach apart, they reach in one run: the cases
/// reach most branches, or the comparison above would say little.
fn reaches_most<P: Puzzle>(reached: u64) {
    let most = P::RULE_BRANCHES.len() as u32 * 3 / 4;
    assert!(
        reached.count_ones() >= most,
        "{}: {} of {} branches",
        P::NAME,
        reached.count_ones(),
        P::RULE_BRANCHES.len()
    );
}

#[test]
fn the_duel_counts_in_its_core_run_as_apart() {
    reaches_most::<Duel>(counts_as_apart::<Duel>(2_000, 3_000));
}

#[test]
fn checkers_counts_in_its_core_run_as_apart() {
    reaches_most::<Checkers>(counts_as_apart::<Checkers>(2_000, 300));
}

#[test]
fn robots_count_in_their_core_run_as_apart() {
    reaches_most::<Robots>(counts_as_apart::<Robots>(2_000, 300));
}

#[test]
fn the_matrix_game_counts_in_its_core_run_as_apart() {
    reaches_most::<MatrixGame>(counts_as_apart::<MatrixGame>(1_000, 300));
}
