//! A puzzle that answers and counts its rule branches in one core run
//! ([`Counting::solve_counting`], what verify and `fuzz --stats` use) must
//! give what the two give apart: the core's own run ([`Model::solve`]),
//! answer and digest, and the branches of [`Puzzle::rule_branches`]. Held
//! on generated cases (games of many lines, cases of many instances) and on
//! cases spread over every level of the CI scope.

use lockstep_core::Model;
use lockstep_harness::campaign::generate_case;
use lockstep_harness::puzzle::{Counting, Puzzle};
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
fn counts_as_apart<P: Counting>(generated: u64, per_level: u64) -> u64 {
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

/// The duel's branch count against the table an earlier, separate count
/// made: `verify duel --scope ci --stats` at 7bf5ae0, which kept every
/// event of a line and read its branches off the list afterwards, where
/// the count now reads each event as the core emits it. Cases of levels 1
/// to 3 reaching each branch, in `RULE_BRANCHES` order. The levels have
/// grown since (more templates, appended; size 1's lists of a skill twice,
/// after the singles): the earlier levels' cases are made again from
/// today's (their templates, the singles alone), and their first 20
/// branches counted.
#[test]
fn the_duels_branch_count_is_the_table_an_earlier_count_made() {
    const EARLIER: [[u64; 20]; 3] = [
        [
            9284, 0, 1584, 4096, 764, 3956, 9284, 5732, 6940, 3632, 4272, 1296, 1008, 3384, 0,
            3384, 0, 0, 8024, 0,
        ],
        [
            27852, 0, 4752, 12288, 2292, 12492, 27852, 17196, 20820, 10896, 12816, 3888, 3024,
            10152, 7500, 7388, 6852, 9284, 34368, 10296,
        ],
        [
            57776, 26928, 1680, 19648, 2528, 4780, 57776, 24816, 10160, 21088, 5200, 1120, 3360,
            10816, 7792, 8224, 10972, 14444, 62032, 15840,
        ],
    ];
    // The earlier templates and their count at each size.
    const TEMPLATES: [(u64, u64); 3] = [(1, 1), (4, 7), (5, 8)];
    for ((size, earlier), (old, now)) in (1..=3).zip(EARLIER).zip(TEMPLATES) {
        let mut reached = [0u64; 20];
        for index in 0..(Duel::LEVELS.span)(size) {
            let Some(mut case) = (Duel::LEVELS.case)(size, index) else {
                continue;
            };
            // The template digit first, then the two cells, then the list.
            if index % now >= old || index / now / 49 / 49 >= 33 {
                continue;
            }
            case.truncate(33);
            let (_, bits) = Duel::solve_counting(&case).expect("the duel counts in its run");
            for (b, count) in reached.iter_mut().enumerate() {
                *count += bits >> b & 1;
            }
        }
        assert_eq!(reached, earlier, "size {size}");
    }
}
