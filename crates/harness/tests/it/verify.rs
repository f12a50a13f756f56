//! `lockstep verify` held to what it claims: each level's decoding against
//! a count made another way (every case valid and different), each
//! symmetry keeping the core's answer, a run with symmetry against one
//! without, shards against the whole, the first disagreement of planted
//! bugs against every case before it, and the command end to end.

use lockstep_core::Model;
use lockstep_harness::campaign::{
    run_campaign_with, CampaignOptions, CampaignOutcome, LevelCertificate,
};
use lockstep_harness::puzzle::{
    check_with, CaseLimits, Counting, Listed, Puzzle, Solver, Verifiable,
};
use lockstep_harness::puzzles::{
    Checkers, CheckersPerft, Duel, DuelSearch, Footholds, MatrixGame, NewGame2, Robots,
};
use lockstep_harness::shrink::Sideways;
use lockstep_search::{Address, Enumeration, Plan, Shard};
use std::collections::HashSet;

fn options(up_to: u32, symmetry: bool, shard: Shard, keep_going: bool) -> CampaignOptions {
    CampaignOptions {
        plan: Plan {
            keep_going,
            shard,
            enumerate: Some(Enumeration {
                from: 1,
                up_to,
                symmetry,
                start: 0,
            }),
            max_cases: None,
            ..Plan::cases(0, 0, 2, lockstep_harness::shrink::DIFFERENTIAL_BUDGET)
        },
        stats: false,
        limits: CaseLimits::Original,
    }
}

fn verified<P: Verifiable + Sideways + Counting>(
    up_to: u32,
    symmetry: bool,
    shard: Shard,
) -> CampaignOutcome<P::Case> {
    run_campaign_with::<P>(&options(up_to, symmetry, shard, false), P::Case::solve)
}

/// Every level up to `up_to`: the valid cases decoded number what the
/// level's count says, each reads back from its judge input, lies within
/// the statement's limits, differs from every other, and counts as many
/// parts as it has (what verify's read-back sample counts in).
fn levels_hold_their_counts<P: Verifiable>(up_to: u32) {
    for size in 1..=up_to {
        let mut inputs = HashSet::new();
        each_case::<P>(size, |index, case| {
            let text = case.write_input();
            assert_eq!(P::Case::parse(&text).as_ref(), Ok(&case), "{text}");
            assert!(P::within_original(&case), "{text}");
            assert_eq!(P::part_count(&case), P::parts(&case).len().max(1), "{text}");
            assert!(inputs.insert(text), "size {size} index {index} twice");
        });
        let count = (P::LEVELS.count)(size);
        assert_eq!(inputs.len() as u64, count, "{} size {size}", P::NAME);
    }
}

/// `f` on each valid case of level `size`, with its index.
fn each_case<P: Puzzle>(size: u32, mut f: impl FnMut(u64, P::Case)) {
    for index in 0..(P::LEVELS.span)(size) {
        if let Some(case) = (P::LEVELS.case)(size, index) {
            f(index, case);
        }
    }
}

/// How far the tests of the levels go for each puzzle of the list: the
/// levels whose counts are held, and those whose symmetry classes are. The
/// puzzles here are tuned by hand; any other (a new one) is tested up to its
/// last level whose cases, with the levels before it, number at most 5,000
/// (at least level 1), so that no puzzle of the list is passed over.
fn levels_tested<P: Puzzle>() -> (u32, u32) {
    match P::NAME {
        "footholds" => (9, 9),
        "matrix-game" => (6, 6),
        "checkers-perft" => (4, 2),
        "duel-search" => (6, 2),
        "checkers" => (2, 2),
        "robots" => (2, 2),
        "new-game2" => (1, 1),
        "duel" => (1, 1),
        _ => {
            let mut total = 0;
            let up_to = (1..=P::LEVELS.last)
                .take_while(|&size| {
                    total += (P::LEVELS.count)(size);
                    size == 1 || total <= 5_000
                })
                .last()
                .unwrap_or(1);
            (up_to, up_to)
        }
    }
}

#[test]
fn every_level_holds_its_count_of_different_valid_cases() {
    fn check<P: Verifiable>() -> &'static str {
        levels_hold_their_counts::<P>(levels_tested::<P>().0);
        P::NAME
    }
    lockstep_harness::each_puzzle!(check());
}

/// Every image of every case of the first levels has the case's answer by
/// the core: the symmetries a puzzle claims are the rules' own.
fn images_keep_the_answer<P: Puzzle>(up_to: u32) {
    for size in 1..=up_to {
        each_case::<P>(size, |_, case| {
            let answer = case.solve().answer;
            for image in (P::LEVELS.images)(&case) {
                assert_eq!(image.solve().answer, answer, "{}", image.write_input());
            }
        });
    }
}

#[test]
fn symmetries_keep_the_answer() {
    fn check<P: Puzzle>() -> &'static str {
        images_keep_the_answer::<P>(levels_tested::<P>().1);
        P::NAME
    }
    lockstep_harness::each_puzzle!(check());
}

/// Each puzzle's pick of the case checked for a class picks exactly one
/// case of each, counted with the class's size: held case by case to the
/// images, which the pick itself need not build.
fn least_picks_one_of_each_class<P: Puzzle>(up_to: u32) {
    for size in 1..=up_to {
        each_case::<P>(size, |index, case| {
            // An index the shortcut passes over holds no pick.
            assert!(
                (P::LEVELS.may_pick)(size, index) || (P::LEVELS.least)(&case).is_none(),
                "{} size {size} case {index}: a pick skipped",
                P::NAME
            );
            let mut class: Vec<P::Case> = Vec::new();
            for image in (P::LEVELS.images)(&case) {
                if !class.contains(&image) {
                    class.push(image);
                }
            }
            let picked: Vec<u64> = class.iter().filter_map(P::LEVELS.least).collect();
            assert_eq!(
                picked,
                [class.len() as u64],
                "{} size {size}: {}",
                P::NAME,
                case.write_input()
            );
        });
    }
}

#[test]
fn each_class_has_one_case_checked() {
    fn check<P: Puzzle>() -> &'static str {
        least_picks_one_of_each_class::<P>(levels_tested::<P>().1);
        P::NAME
    }
    lockstep_harness::each_puzzle!(check());
}

fn totals(levels: &[LevelCertificate]) -> Vec<(u32, u64)> {
    levels.iter().map(|l| (l.size, l.cases)).collect()
}

/// One case of each class, weighted by the class's size, covers the cases
/// every case does, and both runs verify.
#[test]
fn a_run_with_symmetry_covers_what_a_run_without_does() {
    let with = verified::<Footholds>(8, true, Shard::WHOLE);
    let without = verified::<Footholds>(8, false, Shard::WHOLE);
    assert_eq!(totals(&with.levels), totals(&without.levels));
    assert!(with
        .levels
        .iter()
        .chain(&without.levels)
        .all(LevelCertificate::complete));
    let (checked, all) = (with.tally.cases, without.tally.cases);
    assert!(checked < all, "{checked} classes for {all} cases");
    // Boards of eight cells have eight images each, but for the few that
    // are their own (size 7, pairs of games, has no symmetry).
    let eight = with.levels.iter().find(|l| l.size == 8).expect("size 8");
    assert!(
        eight.classes * 3 < eight.cases,
        "{} classes for {} cases of size 8",
        eight.classes,
        eight.cases
    );
    let checkers = [true, false].map(|s| verified::<CheckersPerft>(2, s, Shard::WHOLE).levels);
    assert_eq!(totals(&checkers[0]), totals(&checkers[1]));
}

/// Three machines' certificates add up to the certificate of one: cases,
/// classes and digest, level by level. Checkers skips runs of indexes
/// (`Levels::next`), which a shard must step over to its own positions.
#[test]
fn shards_add_up_to_the_whole_certificate() {
    shards_add_up::<Footholds>(8);
    shards_add_up::<Checkers>(2);
}

fn shards_add_up<P: Verifiable + Sideways + Counting>(up_to: u32) {
    let whole = verified::<P>(up_to, true, Shard::WHOLE).levels;
    let mut sum: Vec<LevelCertificate> = whole
        .iter()
        .map(|l| LevelCertificate {
            size: l.size,
            ..LevelCertificate::default()
        })
        .collect();
    for index in 0..3 {
        let part = verified::<P>(up_to, true, Shard { index, count: 3 }).levels;
        for (total, l) in sum.iter_mut().zip(&part) {
            assert_eq!(total.size, l.size);
            total.cases += l.cases;
            total.classes += l.classes;
            total.digest = total.digest.wrapping_add(l.digest);
        }
    }
    let key = |l: &LevelCertificate| (l.size, l.cases, l.classes, l.digest);
    assert_eq!(
        sum.iter().map(key).collect::<Vec<_>>(),
        whole.iter().map(key).collect::<Vec<_>>()
    );
}

/// Each case's rule branches ([`Puzzle::rule_branches`]) counted one case
/// at a time over every case of each level: what `verify --stats` must
/// print, made here without the campaign's jobs, batches and merges.
fn branches_one_by_one<P: Puzzle>(size: u32) -> Vec<u64> {
    let mut counts = vec![0u64; P::RULE_BRANCHES.len()];
    each_case::<P>(size, |_, case| {
        let bits = P::rule_branches(&case);
        for (i, count) in counts.iter_mut().enumerate() {
            *count += bits >> i & 1;
        }
    });
    counts
}

/// A run's branch counts without symmetry, level by level, are the counts
/// made one case at a time; the run's totals are their sums; and three
/// shards' counts add up to the whole run's.
fn branch_counts_add_up<P: Verifiable + Sideways + Counting>(up_to: u32) {
    let run = |shard| {
        let mut options = options(up_to, false, shard, false);
        options.stats = true;
        run_campaign_with::<P>(&options, P::Case::solve)
    };
    let whole = run(Shard::WHOLE);
    let mut totals = vec![0u64; P::RULE_BRANCHES.len()];
    for size in 1..=up_to {
        let expected = branches_one_by_one::<P>(size);
        let got = whole
            .level_branches
            .iter()
            .find(|(s, _)| *s == size)
            .map_or_else(|| vec![0; expected.len()], |(_, c)| c.clone());
        assert_eq!(got, expected, "{} size {size}", P::NAME);
        for (total, count) in totals.iter_mut().zip(&expected) {
            *total += count;
        }
    }
    let run_totals: Vec<u64> = whole.rule_branches.iter().map(|&(_, c)| c).collect();
    assert_eq!(run_totals, totals, "{}", P::NAME);
    assert!(
        totals.iter().any(|&c| c > 0),
        "{}: no branch reached",
        P::NAME
    );
    let mut shards = vec![0u64; totals.len()];
    for index in 0..3 {
        for (sum, &(_, count)) in shards
            .iter_mut()
            .zip(&run(Shard { index, count: 3 }).rule_branches)
        {
            *sum += count;
        }
    }
    assert_eq!(shards, totals, "{}: shards", P::NAME);
}

/// The puzzles whose first levels are small; the others' (hundreds of
/// thousands of cases a level) are the second tier's
/// (`hunt::verify_counts_each_rule_branch_of_the_larger_levels`).
#[test]
fn verify_counts_each_rule_branch_as_counted_case_by_case() {
    branch_counts_add_up::<Footholds>(5);
    branch_counts_add_up::<MatrixGame>(3);
    branch_counts_add_up::<Robots>(2);
    branch_counts_add_up::<Checkers>(1);
    branch_counts_add_up::<CheckersPerft>(2);
    branch_counts_add_up::<DuelSearch>(1);
}

/// The disagreement verify reports for a broken core is the first of the
/// enumeration: no case before it (smaller, or of its size and a lower
/// index) disagrees.
fn first_is_smallest<P: Verifiable + Sideways + Counting>(
    solver: Solver<P>,
    up_to: u32,
) -> Address {
    let outcome = run_campaign_with::<P>(&options(up_to, false, Shard::WHOLE, false), solver);
    let (address, finding) = outcome.finding.expect("the planted bug is found");
    let Address::Sized { size, index } = address else {
        panic!("{address}")
    };
    assert_eq!(finding.row.origin, lockstep_harness::corpus::Origin::Verify);
    let levels = P::LEVELS;
    for s in 1..=size {
        let end = if s == size { index } else { (levels.span)(s) };
        for i in 0..end {
            if let Some(case) = (levels.case)(s, i) {
                let check = check_with::<P>(&case, solver, P::FUEL);
                assert!(
                    !check.is_divergence(),
                    "size {s} case {i} disagrees before {address}"
                );
            }
        }
    }
    address
}

#[test]
fn the_first_disagreement_is_the_smallest() {
    for (name, bug) in lockstep_planted::footholds::bugs() {
        let at = first_is_smallest::<Footholds>(bug, 9);
        eprintln!("footholds, {name}: {at}");
    }
    for (name, bug) in lockstep_planted::matrix_game::bugs() {
        let at = first_is_smallest::<MatrixGame>(bug, 6);
        eprintln!("matrix-game, {name}: {at}");
    }
}

/// A duel level's case is 33 lines: verify keeps the first line of its
/// first failing case that fails alone, for every planted duel bug its CI
/// scope finds, and says so; a one-line case would be kept as found.
#[test]
fn a_duel_finding_is_narrowed_to_its_first_failing_line() {
    use lockstep_search::shrinking::Stop;
    let mut found = 0;
    for (name, bug) in lockstep_planted::duel::bugs() {
        let outcome =
            run_campaign_with::<Duel>(&options(Duel::LEVELS.ci, false, Shard::WHOLE, false), bug);
        let Some((at, finding)) = outcome.finding else {
            continue;
        };
        found += 1;
        let (original, shrunk) = (&finding.original, &finding.shrunk);
        assert!(original.len() >= 33, "{name} at {at}");
        assert_eq!((shrunk.case.len(), shrunk.stop), (1, Stop::Part), "{name}");
        let line = original
            .iter()
            .position(|turn| *turn == shrunk.case[0])
            .unwrap_or_else(|| panic!("{name}: the line is the case's own"));
        assert_eq!(shrunk.attempts, line + 1, "{name}: the first failing line");
        for earlier in &original[..line] {
            assert!(!check_with::<Duel>(&vec![*earlier], bug, Duel::FUEL).is_divergence());
        }
        assert!(check_with::<Duel>(&shrunk.case, bug, Duel::FUEL).is_divergence());
    }
    assert!(found >= 2, "{found} planted duel bugs found");
}

/// A run with symmetry solves one case of each class with both sides, and
/// holds the core to the pick's answer on every other image. The footholds
/// levels' picks never have more rows than columns, and the CI levels stop
/// at 12 cells, so no pick has five rows; a core wrong on every board of
/// five rows (a neighbour table filled for the first 32 bits of the mask)
/// is found through the images alone, on a board of five rows, and the
/// finding says it is an image.
#[test]
fn a_core_that_breaks_a_symmetry_is_found_through_the_images() {
    fn wrong_on_five_rows(case: &lockstep_core::footholds::Case) -> lockstep_core::Run<Vec<u32>> {
        let mut run = case.solve();
        for (moves, game) in run.answer.iter_mut().zip(&case.games) {
            if game.height >= 5 {
                *moves += 1;
            }
        }
        run
    }
    let up_to = Footholds::LEVELS.ci;
    let mut picks = 0;
    for size in 1..=up_to {
        each_case::<Footholds>(size, |_, case| {
            if (Footholds::LEVELS.least)(&case).is_some() {
                picks += 1;
                assert!(case.games.iter().all(|g| g.height < 5), "{case:?}");
            }
        });
    }
    assert!(picks > 0);
    let options = options(up_to, true, Shard::WHOLE, false);
    let outcome = run_campaign_with::<Footholds>(&options, wrong_on_five_rows);
    let (_, finding) = outcome.finding.expect("the images find the bug");
    assert!(finding.shrunk.case.games.iter().any(|g| g.height >= 5));
    assert!(
        finding.row.note.contains("a symmetric image of it"),
        "{}",
        finding.row.note
    );
    // The real core keeps every symmetry at these levels.
    assert!(verified::<Footholds>(up_to, true, Shard::WHOLE)
        .finding
        .is_none());
}

/// Checkers' explored cases hold an instance for each written move of a
/// position: a finding of verify keeps the first instance that fails
/// alone. The planted core below rules wrong every instance whose move has
/// two legs, so the part kept is the case's first such instance.
#[test]
fn a_checkers_finding_is_narrowed_to_its_first_failing_instance() {
    use lockstep_core::checkers::{Case, Ruling};
    use lockstep_harness::campaign::investigate;
    use lockstep_harness::corpus::Origin;
    use lockstep_search::shrinking::Stop;
    fn two_legs_wrong(case: &Case) -> lockstep_core::Run<Vec<Ruling>> {
        let mut run = case.solve();
        for (ruling, instance) in run.answer.iter_mut().zip(&case.instances) {
            if instance.moves[0].0.len() == 3 {
                *ruling = match ruling {
                    Ruling::AllValid => Ruling::Invalid(1),
                    Ruling::Invalid(_) => Ruling::AllValid,
                };
            }
        }
        run
    }
    let explored = (0..)
        .filter_map(|i| (Checkers::LEVELS.case)(4, i))
        .find(|case| {
            case.instances.len() > 2
                && case.instances[0].moves[0].0.len() == 2
                && case.instances.iter().any(|i| i.moves[0].0.len() == 3)
        })
        .expect("an explored case with one-leg moves first and a two-leg move");
    // Verify's read-back sample counts its instances without making them.
    assert_eq!(
        Checkers::part_count(&explored),
        Checkers::parts(&explored).len()
    );
    let first = explored
        .instances
        .iter()
        .position(|i| i.moves[0].0.len() == 3)
        .unwrap();
    let finding = investigate::<Checkers>(
        two_legs_wrong,
        explored.clone(),
        (Origin::Verify, "test"),
        CaseLimits::Original,
        false,
    );
    let shrunk = &finding.shrunk;
    assert_eq!((shrunk.stop, shrunk.attempts), (Stop::Part, first + 1));
    assert_eq!(
        shrunk.case.instances,
        vec![explored.instances[first].clone()]
    );
    // A case of one instance is kept as found.
    let alone = investigate::<Checkers>(
        two_legs_wrong,
        shrunk.case.clone(),
        (Origin::Verify, "test"),
        CaseLimits::Original,
        false,
    );
    assert_eq!(
        (alone.shrunk.stop, &alone.shrunk.case),
        (Stop::Smallest, &shrunk.case)
    );
}

/// The sampled cases' judge-format input is written and read back: a
/// reader that reads boards of two cells or more wrong makes level 2 fail
/// and names its first sampled case, while level 1 stays verified.
#[test]
fn a_case_whose_input_does_not_read_back_fails_its_level() {
    fn misread(
        text: &str,
    ) -> Result<lockstep_core::footholds::Case, lockstep_core::input::InputError> {
        let mut case = lockstep_core::footholds::Case::parse(text)?;
        if case.games[0].cells.len() >= 2 {
            case.games.push(case.games[0].clone());
        }
        Ok(case)
    }
    let options = options(3, true, Shard::WHOLE, false);
    let outcome = lockstep_harness::campaign::run_campaign_reading::<Footholds>(
        &options,
        lockstep_core::footholds::Case::solve,
        misread,
    );
    assert!(outcome.bugs.is_empty());
    let [one, two, three] = &outcome.levels[..] else {
        panic!("{:?}", outcome.levels);
    };
    assert!(one.complete() && one.unreadable == 0, "{one:?}");
    assert!(!two.complete() && two.unreadable > 0, "{two:?}");
    assert!(three.unreadable > 0, "{three:?}");
    // The sampled classes: the least member of its class, at an index whose
    // input verify reads back; at size 2 every one is misread.
    let mut sampled = Vec::new();
    each_case::<Footholds>(2, |index, case| {
        let least = (Footholds::LEVELS.least)(&case).is_some();
        if least && lockstep_harness::campaign::read_back(index, 1) {
            sampled.push(index);
        }
    });
    assert_eq!(two.unreadable, sampled.len() as u64, "{two:?}");
    assert_eq!(two.first_unreadable, sampled.first().copied(), "{two:?}");
    // With the model's own parser, every level reads back.
    let proper = verified::<Footholds>(3, true, Shard::WHOLE);
    assert!(proper
        .levels
        .iter()
        .all(|l| l.complete() && l.unreadable == 0));
}

/// A duel case of level 1 is 177 lines (33 against a skill twice), and the
/// read-back sample counts it as that many parts: with a reader that
/// misreads every input, the cases level 1 reports unreadable are exactly
/// those `read_back` picks for a case of their lines, end to end through
/// verify's campaign.
#[test]
fn the_duels_read_back_sample_counts_a_case_as_its_lines() {
    fn misread(text: &str) -> Result<lockstep_core::duel::Case, lockstep_core::input::InputError> {
        let mut case = lockstep_core::duel::Case::parse(text)?;
        case.pop();
        Ok(case)
    }
    let outcome = lockstep_harness::campaign::run_campaign_reading::<Duel>(
        &options(1, false, Shard::WHOLE, false),
        lockstep_core::duel::Case::solve,
        misread,
    );
    let [one] = &outcome.levels[..] else {
        panic!("{:?}", outcome.levels);
    };
    let mut sampled = Vec::new();
    each_case::<Duel>(1, |index, case| {
        let lines = Duel::part_count(&case);
        assert!(lines == 177 || lines == 33, "{lines}");
        if lockstep_harness::campaign::read_back(index, lines as u64) {
            sampled.push(index);
        }
    });
    // Fewer than with a case counted as one part, and still some.
    let as_one = (0..(Duel::LEVELS.span)(1))
        .filter(|&i| (Duel::LEVELS.case)(1, i).is_some())
        .filter(|&i| lockstep_harness::campaign::read_back(i, 1))
        .count();
    assert!(
        sampled.len() > 40 && sampled.len() < as_one,
        "{} of {as_one}",
        sampled.len()
    );
    assert_eq!(one.unreadable, sampled.len() as u64, "{one:?}");
    assert_eq!(one.first_unreadable, sampled.first().copied(), "{one:?}");
}

/// Each planted bug against `verify --scope night` (one case per class),
/// 120 seconds at most a bug: the first disagreement's address and the time
/// it took, printed as a table (`cargo test --release -p lockstep-harness --test it
/// planted_bugs_by_size -- --ignored --nocapture`). The footholds and
/// matrix game bugs show on the smallest boards, so each must be found; the
/// other puzzles' levels leave parts of their rules (skills, long games,
/// crowded boards) to `fuzz`, and their rows say how far verify got.
#[test]
#[ignore = "a measurement of minutes; run by hand for the figures"]
fn planted_bugs_by_size() {
    planted_bugs_table(false);
}

/// The same table against `verify --scope ci`, every level to its end (no
/// clock): which planted bugs the CI scope finds (`cargo test -p
/// lockstep-harness --test it planted_bugs_by_ci_scope -- --ignored
/// --nocapture`).
#[test]
#[ignore = "a measurement of minutes; run by hand for the figures"]
fn planted_bugs_by_ci_scope() {
    planted_bugs_table(true);
}

fn planted_bugs_table(ci: bool) {
    fn hunt<P: Verifiable + Sideways + Counting>(
        name: &str,
        bug: Solver<P>,
        ci: bool,
        missed: &mut Vec<String>,
    ) {
        let must = [Footholds::NAME, MatrixGame::NAME];
        let up_to = if ci { P::LEVELS.ci } else { P::LEVELS.night };
        let mut options = options(up_to, true, Shard::WHOLE, false);
        // A bug that must be found is hunted to the end of the levels, so
        // that no clock decides the assertion; the others for 120 s at night.
        if !must.contains(&P::NAME) && !ci {
            options.plan.seconds = 120.0;
        }
        let start = std::time::Instant::now();
        let outcome = run_campaign_with::<P>(&options, bug);
        let found = outcome.finding.as_ref().map(|(at, _)| at.to_string());
        eprintln!(
            "| {} | {name} | {} | {:.2} |",
            P::NAME,
            found.as_deref().unwrap_or("not found"),
            start.elapsed().as_secs_f64()
        );
        if found.is_none() && must.contains(&P::NAME) {
            missed.push(format!("{}: {name}", P::NAME));
        }
    }
    let mut missed = Vec::new();
    macro_rules! every_bug {
        ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {
            $(for (name, bug) in lockstep_planted::$m::bugs() {
                hunt::<lockstep_harness::puzzles::$ty>(name, bug, ci, &mut missed);
            })*
        };
    }
    eprintln!("| puzzle | planted bug | first disagreement | seconds |\n|---|---|---|---:|");
    lockstep_harness::for_each_puzzle!(every_bug);
    assert!(missed.is_empty(), "not found: {missed:?}");
}

mod hunt {
    use super::*;

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn verify_counts_each_rule_branch_of_the_larger_levels() {
        branch_counts_add_up::<Checkers>(2);
        branch_counts_add_up::<NewGame2>(1);
        branch_counts_add_up::<Duel>(1);
    }

    /// The CI scope's checkers levels hold multi-jumps, crowning in the middle
    /// of a move, kings' jumps and games of two moves: every planted checkers
    /// bug (each a rule of the statement got wrong) disagrees on some case of
    /// them. Before those levels, a move was one hop and five of the eight
    /// passed the whole night scope (docs/notes/2026-12-05-verify-speed.md).
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn the_ci_scope_finds_every_planted_checkers_bug() {
        let mut missed = Vec::new();
        for (name, bug) in lockstep_planted::checkers::bugs() {
            let outcome = run_campaign_with::<Checkers>(
                &options(Checkers::LEVELS.ci, true, Shard::WHOLE, false),
                bug,
            );
            match outcome.finding {
                Some((at, _)) => eprintln!("checkers, {name}: {at}"),
                None => missed.push(name),
            }
        }
        assert!(missed.is_empty(), "the CI scope misses {missed:?}");
    }

    /// Every contestant bug (`CONTESTANT` in each planted module: checks
    /// in the wrong order where two constants meet, a bound from the wrong
    /// side, shapes larger than the levels once held) disagrees with the
    /// reference on some case of the CI scope, with symmetry as verify runs
    /// it. The table of where each is found: `--nocapture`.
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn the_ci_scope_finds_every_contestant_bug() {
        fn hunt<P: Verifiable + Sideways + Counting>(
            bugs: &[(&'static str, Solver<P>)],
            missed: &mut Vec<String>,
        ) {
            for &(name, bug) in bugs {
                let start = std::time::Instant::now();
                let options = options(P::LEVELS.ci, true, Shard::WHOLE, false);
                let found = run_campaign_with::<P>(&options, bug).finding;
                let at = found.as_ref().map(|(at, _)| at.to_string());
                eprintln!(
                    "| {} | {name} | {} | {:.1} |",
                    P::NAME,
                    at.as_deref().unwrap_or("not found"),
                    start.elapsed().as_secs_f64()
                );
                if found.is_none() {
                    missed.push(format!("{}: {name}", P::NAME));
                }
            }
        }
        let mut missed = Vec::new();
        eprintln!("| puzzle | contestant bug | first disagreement | seconds |\n|---|---|---|---:|");
        hunt::<Robots>(&lockstep_planted::robots::CONTESTANT, &mut missed);
        hunt::<NewGame2>(&lockstep_planted::new_game2::CONTESTANT, &mut missed);
        hunt::<Footholds>(&lockstep_planted::footholds::CONTESTANT, &mut missed);
        hunt::<Checkers>(&lockstep_planted::checkers::CONTESTANT, &mut missed);
        hunt::<Duel>(&lockstep_planted::duel::CONTESTANT, &mut missed);
        assert!(missed.is_empty(), "the CI scope misses {missed:?}");
    }

    /// The explored games alone (the CI scope's depths, without the shapes)
    /// find every planted checkers bug: each is a rule about a move that some
    /// game of two men a side makes. The deepest two (a jump on after a
    /// crowning, a king's jump stopped on its far row) show at depth 21, the
    /// CI scope's last.
    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn the_explored_games_find_the_planted_checkers_bugs_of_their_moves() {
        use lockstep_harness::puzzles::checkers::explore;
        let mut options = options(Checkers::LEVELS.ci, true, Shard::WHOLE, false);
        if let Some(enumeration) = options.plan.enumerate.as_mut() {
            enumeration.from = explore::FIRST;
        }
        let mut missed = Vec::new();
        for (name, bug) in lockstep_planted::checkers::bugs() {
            match run_campaign_with::<Checkers>(&options, bug).finding {
                Some((at, _)) => eprintln!("checkers, explored, {name}: {at}"),
                None => missed.push(name),
            }
        }
        assert!(missed.is_empty(), "the explored games miss {missed:?}");
    }
}

/// Each puzzle's last level holds cases and the three after it hold none,
/// by the levels' own count: the bound `--size` is refused past.
fn last_is_the_last_level<P: Puzzle>() {
    let last = P::LEVELS.last;
    assert!(
        (P::LEVELS.count)(last) > 0,
        "{}: level {last} is empty",
        P::NAME
    );
    for size in last + 1..=last + 3 {
        assert_eq!((P::LEVELS.count)(size), 0, "{}: level {size}", P::NAME);
    }
    assert!(P::LEVELS.night <= last && P::LEVELS.ci <= P::LEVELS.night);
}

#[test]
fn no_level_past_the_last_holds_a_case() {
    last_is_the_last_level::<Robots>();
    last_is_the_last_level::<NewGame2>();
    last_is_the_last_level::<Footholds>();
    last_is_the_last_level::<Checkers>();
    last_is_the_last_level::<CheckersPerft>();
    last_is_the_last_level::<Duel>();
    last_is_the_last_level::<DuelSearch>();
    last_is_the_last_level::<MatrixGame>();
}
