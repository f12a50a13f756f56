use super::*;
use crate::puzzles::Footholds;

/// The whole-scope measure runs verify over every case of the CI
/// levels: the cases it covers are the levels' own count (made another
/// way), in fewer classes, and the figures are rates.
#[test]
fn the_scope_measure_covers_every_case_of_the_ci_levels() {
    let measured = scope_share::<Footholds>(1, lockstep_core::footholds::clear_table);
    let count: u64 = (1..=Footholds::LEVELS.ci)
        .map(Footholds::LEVELS.count)
        .sum();
    assert_eq!(measured.cases, count);
    assert!(measured.classes > 0 && measured.classes * 4 < measured.cases);
    for rate in [
        measured.verify_per_second,
        measured.alone_per_second,
        measured.share,
    ] {
        assert!(rate.is_finite() && rate > 0.0, "{measured:?}");
    }
}

/// The first cases are the first valid ones, and a verify stopped at
/// the position after them checks exactly those: the "same cases" of
/// [`verify_share`].
#[test]
fn the_first_cases_are_the_cases_verify_checks() {
    let plan = levels(3, false);
    let (all, end) = first_cases::<Footholds>(&plan, usize::MAX);
    let count: u64 = (1..=3).map(Footholds::LEVELS.count).sum();
    assert_eq!((all.len() as u64, end), (count, plan_end(&plan)));
    let (some, after) = first_cases::<Footholds>(&plan, 5);
    assert_eq!(some[..], all[..5]);
    let options = CampaignOptions {
        plan: Plan {
            max_cases: Some(after),
            ..plan
        },
        stats: false,
        limits: CaseLimits::Original,
    };
    assert_eq!(run_campaign::<Footholds>(&options).tally.cases, 5);
}

fn plan_end(plan: &Plan) -> u64 {
    Enumerated::<Footholds>::new(plan, Footholds::LEVELS, CaseLimits::Original)
        .positions()
        .unwrap()
}
