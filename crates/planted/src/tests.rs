use super::*;
use lockstep_harness::puzzles::NewGame2;
use lockstep_search::seeds::{case_bytes, CASE_BYTES};
use std::panic::{catch_unwind, AssertUnwindSafe};

#[test]
fn every_listed_bug_is_found_by_its_name() {
    let all = all();
    // Not vacuous: the bugs of every puzzle, at least one each.
    assert!(all.len() >= 25, "{} planted bugs", all.len());
    for (name, puzzle, bug) in &all {
        let found = find(name).unwrap_or_else(|| panic!("{name} not found"));
        assert_eq!(
            (&found.name, found.puzzle, found.bug),
            (name, *puzzle, *bug)
        );
    }
    let mut names: Vec<&String> = all.iter().map(|b| &b.0).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len(), "two bugs of one name");
    fn module<P: Puzzle>() -> &'static str {
        P::MODULE
    }
    for module in lockstep_harness::each_puzzle!(module()) {
        let first = format!("{module}/0");
        assert!(find(&first).is_some(), "{module}: no planted bug");
    }
}

#[test]
fn an_unknown_name_is_not_found() {
    for name in [
        "",
        "robots",
        "robots/",
        "robots/99",
        "robots/-1",
        "new-game2/0",
        "nothing/0",
    ] {
        assert!(find(name).is_none(), "{name:?} found");
    }
}

/// A bug's `fuzz_one` runs that bug, not the core: it panics on an input
/// the core's own body (`fuzz_one`) passes.
#[test]
fn fuzz_one_runs_the_bug_not_the_core() {
    let planted = find("new_game2/0").expect("new_game2's first bug");
    assert_eq!(planted.bug, new_game2::BUGS[0].0);
    let mut buf = vec![0u8; CASE_BYTES];
    let failing = (0..5_000).find(|&index| {
        case_bytes(1, 0, index, &mut buf);
        catch_unwind(AssertUnwindSafe(|| (planted.fuzz_one)(&buf))).is_err()
    });
    let index = failing.expect("the bug fails on one of 5,000 inputs");
    case_bytes(1, 0, index, &mut buf);
    lockstep_harness::fuzz_target::fuzz_one::<NewGame2>(&buf);
}
