use super::*;

/// The shortcut that skips White-to-move indexes is `least` read off
/// the index: on a sample of every kind of level (the third's shapes,
/// explored depths, the last), an index it passes over holds no pick,
/// an index it keeps holds Red to move, and it passes over half.
#[test]
fn may_pick_is_least_read_off_the_index() {
    for size in [3, explore::FIRST, explore::FIRST + 8, LAST] {
        let span = span(size);
        let step = (span / 20_000).max(1) | 1;
        let (mut kept, mut skipped) = (0u64, 0u64);
        for index in (0..span).step_by(step as usize) {
            let pick = may_pick(size, index);
            if let Some(case) = case(size, index) {
                assert_eq!(least(&case).is_some(), pick, "size {size} case {index}");
                if pick {
                    kept += 1;
                } else {
                    skipped += 1;
                }
            }
        }
        assert!(
            kept > 0 && skipped > 0,
            "size {size}: {kept} kept, {skipped} skipped"
        );
        assert!(
            kept.abs_diff(skipped) * 4 < kept + skipped,
            "size {size}: {kept} against {skipped}"
        );
    }
}

/// What `next` skips holds no checked case: from indexes spread over
/// every kind of level, with and without symmetry, each index passed
/// over decodes to nothing (or, with symmetry, to no pick); and it
/// skips most of the third level.
#[test]
fn next_skips_only_indexes_that_hold_no_checked_case() {
    for size in [1, 2, 3, explore::FIRST, explore::FIRST + 8, LAST] {
        for symmetry in [false, true] {
            let span = span(size);
            let (mut passed, mut tried) = (0u64, 0u64);
            for from in (0..span).step_by((span / 300).max(1) as usize) {
                let to = next(size, from, symmetry);
                assert!((from..=span).contains(&to), "size {size}: {from} to {to}");
                for index in from..to {
                    let checked =
                        case(size, index).filter(|case| !symmetry || least(case).is_some());
                    assert!(checked.is_none(), "size {size} case {index} skipped");
                }
                passed += to - from;
                tried += 1;
            }
            if size == 3 {
                assert!(passed > 0, "size 3, symmetry {symmetry}: nothing skipped");
            }
            assert!(tried > 0);
        }
    }
}
