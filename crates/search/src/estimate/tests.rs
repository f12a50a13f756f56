use super::{parts, spread, Estimate};

fn estimate(sizes: Vec<(u32, f64)>) -> Estimate {
    Estimate {
        positions: 1_824_816,
        unit: "indexes",
        cases: Some(1_824_816),
        sampled: 13,
        seconds: sizes.last().map_or(10.0, |s| s.1),
        per_case: Some(0.167),
        jobs: 2,
        sizes,
    }
}

/// A run over an hour names the largest size that fits in one, or says
/// that none does; a run within the hour, or without sizes, says the
/// one line it always did.
#[test]
fn a_run_over_an_hour_names_the_size_that_fits_in_one() {
    let fits = estimate(vec![(1, 2_700.0), (2, 160_000.0)]).to_string();
    assert_eq!(
        fits,
        "1824816 cases at 1824816 indexes: about 44.4 h (timed on a sample of 13 spread over them)\n\
         at about 167 ms a case on 2 jobs, up to size 2 takes about 44.4 h; up to size 1 \
         fits in an hour (about 45 min): --size 1"
    );
    let none = estimate(vec![(1, 3_900.0), (2, 160_000.0)]).to_string();
    assert!(
        none.ends_with("no size fits in an hour: size 1 alone takes about 65 min"),
        "{none}"
    );
    // The largest that fits, not the first.
    let three = estimate(vec![(1, 10.0), (2, 3_000.0), (3, 90_000.0)]);
    assert_eq!(three.size_for_an_hour(), Some(Ok((2, 3_000.0))));
    let within = estimate(vec![(1, 10.0), (2, 3_000.0)]);
    assert_eq!(within.size_for_an_hour(), None);
    assert!(!within.to_string().contains('\n'));
    let no_sizes = Estimate {
        cases: None,
        ..estimate(Vec::new())
    };
    assert_eq!(no_sizes.size_for_an_hour(), None);
    assert_eq!(
        no_sizes.to_string(),
        "1824816 indexes: about 10 s (timed on a sample of 13 spread over them)"
    );
}

/// Each level a part of the sample, empty ones left out and a case
/// cap's end respected; a source without levels one part.
#[test]
fn the_sample_is_split_at_the_levels() {
    assert_eq!(
        parts(&[(1, 5), (2, 5), (3, 20), (4, 100)], 50),
        vec![(Some(1), 0..5), (Some(3), 5..20), (Some(4), 20..50)]
    );
    assert_eq!(parts(&[], 7), vec![(None, 0..7)]);
}

#[test]
fn the_spread_halves_each_gap_in_turn() {
    let first: Vec<f64> = (0..8).map(spread).collect();
    assert_eq!(first, [0.0, 0.5, 0.25, 0.75, 0.125, 0.625, 0.375, 0.875]);
}
