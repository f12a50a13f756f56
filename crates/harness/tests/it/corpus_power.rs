//! What the corpus replay alone rejects: every planted bug, the catalogue's
//! and the contestant ones, run over its puzzle's committed corpus rows as a
//! solution is (its judge output held to each row's expected answer, a panic
//! a rejection), must fail a row. CI replays the corpus on every change, so
//! a regression the planted bugs stand for is caught by the replay alone,
//! without waiting for a campaign to find it again.

use lockstep_core::Model;
use lockstep_harness::corpus;
use lockstep_harness::puzzle::{Puzzle, Solver};
use lockstep_harness::puzzles::{Checkers, Duel, Footholds, NewGame2, Robots};
use std::path::Path;

/// The first row of `P`'s corpus whose expected answer `solver` does not
/// give, or `None` when it gives every one.
fn first_rejecting_row<P: Puzzle>(solver: Solver<P>) -> Option<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let rows = corpus::load::<P>(&corpus::path_for::<P>(&dir)).expect("the corpus loads");
    rows.into_iter().find_map(|loaded| {
        let expected = corpus::decode_for::<P>(&loaded.row.expected);
        if expected.trim().is_empty() {
            return None;
        }
        let case = &loaded.case;
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| solver(case).answer));
        let rejected = match answer {
            Err(_) => true,
            Ok(answer) => !lockstep_text::same_output(&P::Case::write_answer(&answer), &expected),
        };
        rejected.then_some(loaded.row.name)
    })
}

/// Every planted bug of `P` that its corpus lets through, by name.
fn let_through<P: Puzzle>(bugs: Vec<(&'static str, Solver<P>)>) -> Vec<String> {
    bugs.into_iter()
        .filter(|(_, solver)| first_rejecting_row::<P>(*solver).is_none())
        .map(|(name, _)| format!("{}: {name}", P::NAME))
        .collect()
}

#[test]
fn the_corpus_replay_rejects_every_planted_bug() {
    macro_rules! catalogue {
        ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {{
            let mut through = Vec::new();
            $(through.extend(let_through::<lockstep_harness::puzzles::$ty>(
                lockstep_planted::$m::bugs(),
            ));)*
            through
        }};
    }
    let mut through: Vec<String> = lockstep_harness::for_each_puzzle!(catalogue);
    through.extend(let_through::<Robots>(
        lockstep_planted::robots::CONTESTANT.to_vec(),
    ));
    through.extend(let_through::<NewGame2>(
        lockstep_planted::new_game2::CONTESTANT.to_vec(),
    ));
    through.extend(let_through::<Footholds>(
        lockstep_planted::footholds::CONTESTANT.to_vec(),
    ));
    through.extend(let_through::<Checkers>(
        lockstep_planted::checkers::CONTESTANT.to_vec(),
    ));
    through.extend(let_through::<Duel>(
        lockstep_planted::duel::CONTESTANT.to_vec(),
    ));
    assert!(
        through.is_empty(),
        "the corpus lets through:\n{}",
        through.join("\n")
    );
}
