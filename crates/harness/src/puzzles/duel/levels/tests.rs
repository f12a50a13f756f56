use super::*;
use lockstep_core::duel::WAIT;

/// What `next` skips holds no case, and `next` stops at every index
/// that holds one: over the first placements of every level.
#[test]
fn next_skips_only_indexes_that_hold_no_case() {
    for size in 1..=LEVELS.last {
        let end = span(size).min(40_000);
        let mut skipped = 0;
        for index in 0..end {
            let to = next(size, index, false);
            assert!(to >= index);
            for refused in index..to.min(end) {
                assert!(case(size, refused).is_none(), "size {size}, {refused}");
            }
            if to == index {
                assert!(case(size, index).is_some(), "size {size}, {index}");
            } else {
                skipped += 1;
            }
        }
        assert!(skipped > end / 2, "size {size}: {skipped} of {end}");
    }
}

/// The single actions are 33 different ones, each with a direction of
/// its own set (wait with none), every code among them.
#[test]
fn the_single_actions_are_every_action_once() {
    let all: Vec<Action> = (0..SINGLES).map(single).collect();
    for (i, a) in all.iter().enumerate() {
        assert!(!all[..i].contains(a), "{a:?} twice");
        match a.code {
            WAIT => assert_eq!(a.dir, None),
            DASH => assert!(a.dir.is_some()),
            _ => assert!(Dir::STRAIGHT.contains(&a.dir.unwrap()), "{a:?}"),
        }
    }
    for code in 0..=7 {
        assert!(all.iter().any(|a| a.code == code), "code {code}");
    }
    assert_eq!(all.iter().filter(|a| a.code == DASH).count(), 8);
}
