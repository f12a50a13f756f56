//! The duel bot and its search: legal answers on generated states, the time
//! budget, sure wins taken, core's search value against the reference's, a
//! deliberately blind search caught by the differential, and short tournaments
//! through the real binary.

use lockstep_core::duel::search::{maximin, Searcher};
use lockstep_core::duel::{
    check_legal, legal_lists, resolve_turn, Actions, Outcome, State, Winner, WIN_VALUE,
};
use lockstep_core::Model;
use lockstep_harness::campaign::{find_and_shrink, generate_case};
use lockstep_harness::puzzle::{check, check_with, Agreement, Puzzle};
use lockstep_harness::puzzles::duel::generated_states;
use lockstep_harness::puzzles::DuelSearch;
use lockstep_planted::duel_search::blind_to_dashes;
use lockstep_reference::{duel_search as reference, Fuel};
use lockstep_search::seeds::CASE_BYTES;
use std::time::Instant;

fn wins_against_everything(state: &State, player: usize, mine: Actions) -> bool {
    let mut columns = Vec::new();
    legal_lists(state, 1 - player, &mut columns);
    let winner = if player == 0 { Winner::P1 } else { Winner::P2 };
    columns.iter().all(|&c| {
        let actions = if player == 0 { [mine, c] } else { [c, mine] };
        matches!(resolve_turn(state, &actions).outcome, Outcome::Ended(w, _) if w == winner)
    })
}

/// A search whose deadline has already passed still answers a legal list,
/// and stops after the one row it must scan: the deadline is checked
/// before every row but the first (a row is at most 1089 resolutions). The
/// deadline is past before the search starts, so no clock decides what it
/// does; how long a row takes is the bench's to measure.
#[test]
fn the_search_answers_legally_when_its_deadline_has_passed() {
    let mut searcher = Searcher::new();
    let mut cut_short = 0;
    for state in generated_states(11, 1500) {
        for player in 0..2 {
            let r = searcher.maximin(&state, player, Some(Instant::now()));
            assert!(
                check_legal(&state, player, &r.best).is_ok(),
                "{:?} for player {player} in {state:?}",
                r.best
            );
            if !r.complete {
                cut_short += 1;
                assert_eq!(r.rows_done, 1, "rows scanned past the deadline: {r:?}");
            }
        }
    }
    // Most states have more than one row and no sure win in the first.
    assert!(cut_short > 1000, "only {cut_short} searches cut short");
}

#[test]
fn core_search_values_equal_the_reference_on_generated_states() {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut agreed = 0;
    for index in 0..400 {
        let Some(state) = generate_case::<DuelSearch>(5, 0, index, &mut buf) else {
            continue;
        };
        match check::<DuelSearch>(&state) {
            Agreement::Agree => agreed += 1,
            Agreement::Timeout => {}
            v => panic!("{v:?} on {}", state.write_input()),
        }
        // The chosen list is legal for the reference too, and achieves the value
        // in the reference's own matrix.
        let core = maximin(&state, 0);
        let naive = reference::maximin(&state, 0, &mut Fuel::unlimited()).unwrap();
        let row = naive.rows.iter().find(|(l, _)| *l == core.best).unwrap();
        assert_eq!(row.1, naive.value);
    }
    assert!(agreed >= 390, "{agreed}");
}

// ---- tournaments through the real binary ----

/// The race search's second pass (the fewest losing replies) is reached by
/// the generated states, and a search that skipped it is caught.
#[test]
fn a_race_search_without_its_second_pass_is_caught() {
    let mut buf = vec![0u8; CASE_BYTES];
    let with_losses = (0..400)
        .filter_map(|i| generate_case::<DuelSearch>(21, 0, i, &mut buf))
        .filter(|s| {
            let a = s.solve().answer;
            a[4] > 0 || a[5] > 0
        })
        .count();
    assert!(with_losses >= 10, "{with_losses} of 400 states");
    let skips_second_pass = |s: &State| {
        let mut run = s.solve();
        run.answer[4] = 0;
        run.answer[5] = 0;
        run
    };
    let found = find_and_shrink::<DuelSearch>(21, 0..400, |s| {
        check_with::<DuelSearch>(s, skips_second_pass, DuelSearch::FUEL).is_divergence()
    });
    assert!(
        found.is_some(),
        "the differential misses a skipped second pass"
    );
}

/// The list the race search plays is the one its numbers describe: its worst
/// race value is the maximin value, or, when every list can lose, it loses to
/// exactly `losses` replies (counted here by brute force over core's engine).
/// The differential compares only the numbers, so this holds the choice.
#[test]
fn the_race_search_plays_the_list_its_numbers_describe() {
    use lockstep_core::duel::race::evaluate_race;
    let mut buf = vec![0u8; CASE_BYTES];
    let mut searcher = Searcher::new();
    let (mut columns, mut second_pass) = (Vec::new(), 0);
    for index in 0..150 {
        let Some(state) = generate_case::<DuelSearch>(31, 0, index, &mut buf) else {
            continue;
        };
        for player in 0..2 {
            let r = searcher.race(&state, player, None);
            legal_lists(&state, 1 - player, &mut columns);
            let values: Vec<i32> = columns
                .iter()
                .map(|&c| {
                    let a = if player == 0 {
                        [r.best, c]
                    } else {
                        [c, r.best]
                    };
                    evaluate_race(&resolve_turn(&state, &a), player)
                })
                .collect();
            let lost = values.iter().filter(|&&v| v == -WIN_VALUE).count() as u32;
            let worst = values.iter().copied().min().unwrap();
            let shown = state.write_input();
            if r.losses > 0 {
                second_pass += 1;
                assert_eq!(lost, r.losses, "P{} on {shown}", player + 1);
            } else {
                assert_eq!(worst, r.value, "P{} on {shown}", player + 1);
            }
        }
    }
    assert!(
        second_pass >= 5,
        "only {second_pass} searches needed the second pass"
    );
}

#[test]
fn the_generators_list_count_matches_the_reference_list() {
    // The duel-search generator caps rows x columns with a formula of its own;
    // the reference's brute-force list is the oracle for it.
    let states = generated_states(11, 3_000);
    let mut checked = 0;
    for state in &states {
        for p in 0..2 {
            let listed = reference::legal_lists(state, p).len();
            assert_eq!(
                lockstep_harness::puzzles::duel_search::count_lists(state, p),
                listed,
                "player {} in {}",
                p + 1,
                lockstep_core::duel::write_state(state)
            );
            checked += usize::from(listed > 100);
        }
    }
    assert!(checked > 1_000, "only {checked} states with many lists");
}

/// Every shrink candidate lowers one part of the measure the shrink report
/// prints and raises none, so a report's "shrunk from A to B" reads smaller.
#[test]
fn every_shrink_candidate_lowers_the_measure_the_report_prints() {
    use lockstep_harness::puzzles::duel_search::shrink_measure;
    let mut buf = vec![0u8; lockstep_search::seeds::CASE_BYTES];
    let mut checked = 0;
    for index in 0..300 {
        let Some(state) = generate_case::<DuelSearch>(4, 0, index, &mut buf) else {
            continue;
        };
        let before = shrink_measure(&state);
        for simpler in DuelSearch::shrink_candidates(&state) {
            let after = shrink_measure(&simpler);
            let lowered = (0..6).filter(|&i| after[i] < before[i]).count();
            let raised = (0..6).filter(|&i| after[i] > before[i]).count();
            assert!(
                lowered >= 1 && raised == 0,
                "{before:?} -> {after:?}: {}",
                DuelSearch::describe(&simpler)
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} candidates checked");
}

mod hunt {
    use super::*;

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_sure_win_is_taken_whenever_one_exists() {
        let mut found = 0;
        let mut rows = Vec::new();
        for state in generated_states(11, 3000) {
            for player in 0..2 {
                legal_lists(&state, player, &mut rows);
                if !rows
                    .iter()
                    .any(|&r| wins_against_everything(&state, player, r))
                {
                    continue;
                }
                found += 1;
                let r = maximin(&state, player);
                assert_eq!(r.value, WIN_VALUE, "{state:?}");
                assert!(wins_against_everything(&state, player, r.best), "{state:?}");
            }
        }
        assert!(found >= 5, "only {found} states with a sure win");
    }

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_search_blind_to_dashes_is_caught_and_shrunk() {
        let found = find_and_shrink::<DuelSearch>(3, 0..3000, |s| {
            check_with::<DuelSearch>(s, blind_to_dashes, DuelSearch::FUEL).is_divergence()
        });
        let (index, shrunk) = found.expect("the differential finds the blind search");
        let original = generate_case::<DuelSearch>(3, 0, index, &mut vec![0; CASE_BYTES])
            .expect("the case the hunt found");
        // What the shrinker lowers: waits, hp below 10, blessing, the turn.
        let size = |s: &State| {
            let player = |p: &lockstep_core::duel::Player| {
                p.waits.iter().map(|&w| u32::from(w)).sum::<u32>()
                    + (10 - p.hp.max(0)) as u32
                    + u32::from(p.blessing)
            };
            s.players.iter().map(player).sum::<u32>() + u32::from(s.turn)
        };
        assert!(
            shrunk.steps > 0 && size(&shrunk.case) < size(&original),
            "not shrunk: {} from {}",
            size(&shrunk.case),
            size(&original)
        );
        // The real core agrees on the shrunk case.
        assert_eq!(check::<DuelSearch>(&shrunk.case), Agreement::Agree);
    }
}
