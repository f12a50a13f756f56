use super::how_far;

#[test]
fn how_far_says_the_share_and_the_time_left_at_the_rate_so_far() {
    assert_eq!(
        how_far(250, Some((1000, "cases")), 30.0, None).as_deref(),
        Some("250 of 1000 cases (25%), about 90 s left")
    );
    // The deadline comes first.
    assert_eq!(
        how_far(250, Some((1000, "cases")), 30.0, Some(40.0)).as_deref(),
        Some("250 of 1000 cases (25%), about 10 s left")
    );
    assert_eq!(
        how_far(0, Some((1000, "indexes")), 1.0, None).as_deref(),
        Some("0 of 1000 indexes (0%)")
    );
    assert_eq!(
        how_far(5, None, 20.0, Some(30.0)).as_deref(),
        Some("10 s left")
    );
    assert_eq!(how_far(5, None, 20.0, None), None);
    // Done past the end (positions of a last batch) reads as the end.
    assert_eq!(
        how_far(1200, Some((1000, "cases")), 5.0, None).as_deref(),
        Some("1000 of 1000 cases (100%), about 0.0 s left")
    );
}
