//! What the corpus replay alone rejects: every planted bug, the catalogue's
//! and the contestant ones, put in the core's place in the replay CI runs
//! ([`replay::replay_row_with`]: each row's expected answer, the step trace
//! against the reference's, a panic a failure), must fail a row. So a
//! regression the planted bugs stand for is caught by the replay alone,
//! without waiting for a campaign to find it again. (As a program judged on
//! answers alone, each must fail the exported sets too: the tier-2 test in
//! tests/cli/export.rs.)

use lockstep_harness::puzzle::{Puzzle, Solver};
use lockstep_harness::puzzles::{Checkers, Duel, Footholds, NewGame2, Robots};
use lockstep_harness::{corpus, replay};
use std::path::Path;

/// The first row of `P`'s corpus that the replay with `solver` for the core
/// fails, or `None` when every row passes.
fn first_rejecting_row<P: Puzzle>(solver: Solver<P>) -> Option<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let rows = corpus::load::<P>(&corpus::path_for::<P>(&dir)).expect("the corpus loads");
    rows.into_iter()
        .find(|loaded| replay::replay_row_with::<P>(loaded, solver).is_err())
        .map(|loaded| loaded.row.name)
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
