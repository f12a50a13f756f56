//! quickcheck: core agrees with reference on cases from the puzzles' own generators.
//! A failure prints the shrunk case as a ready corpus row.

use crate::support::has;
use arbitrary::Unstructured;
use lockstep_core::Model;
use lockstep_harness::generate::{
    generate_case, generate_case_with_reference, generate_case_within,
};
use lockstep_harness::puzzle::{CaseLimits, Puzzle, Verifiable};
use lockstep_harness::puzzles::Checkers;
use lockstep_harness::quickcheck_cases::{core_agrees_with_reference, ArbitraryCase};
use lockstep_harness::shrink::Sideways;
use lockstep_reference::Fuel;
use lockstep_reference::Naive;
use lockstep_search::seeds::{case_bytes, CASE_BYTES, FIRST_BYTES};
use lockstep_search::Shard;
use quickcheck::{QuickCheck, TestResult};

/// `tests` agreeing cases of `P`. A case the reference cannot finish within its
/// fuel is discarded, not passed; at least half of `tests` must really pass, so a
/// generator whose cases all ran out of fuel fails instead of passing empty.
fn agrees<P: Puzzle>(tests: u64) {
    QuickCheck::new()
        .tests(tests)
        .max_tests(10 * tests)
        .min_tests_passed(tests / 2)
        .quickcheck(core_agrees_with_reference::<P> as fn(ArbitraryCase<P>) -> TestResult);
}

/// One test per puzzle, `core_agrees_with_reference::<module>`, from the one
/// list of puzzles, each over [`crate::support::property_cases`] cases.
mod core_agrees_with_reference {
    macro_rules! property_tests {
        ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {
            $(
                #[test]
                fn $m() {
                    type P = lockstep_harness::puzzles::$ty;
                    super::agrees::<P>(crate::support::property_cases::<P>());
                }
            )*
        };
    }
    lockstep_harness::for_each_puzzle!(property_tests);
}

/// A campaign can be repeated: the same seed gives the same cases, another seed
/// others.
fn same_seed_same_cases<P: Puzzle>() {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut cases = |seed| -> Vec<P::Case> {
        (0..50)
            .filter_map(|i| generate_case::<P>(seed, 1, i, &mut buf))
            .collect()
    };
    let (a, b, c) = (cases(3), cases(3), cases(4));
    assert!(a.len() >= 25, "{}: {} cases of 50", P::NAME, a.len());
    assert_eq!(a, b, "{}", P::NAME);
    assert_ne!(a, c, "{}", P::NAME);
}

#[test]
fn the_same_seed_gives_the_same_cases() {
    lockstep_harness::each_puzzle!(same_seed_same_cases());
}

/// The campaign's short first try ([`FIRST_BYTES`]) makes exactly the case
/// the whole [`CASE_BYTES`] buffer makes, for cases that fit the short try and
/// for those that must be made again (the duel's long games, the robots' big
/// fields); a change to a generator that read bytes from the back, or asked how
/// many are left, would break it here.
fn short_first_try_changes_no_case<P: Puzzle>(limits: CaseLimits) {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut full = vec![0u8; CASE_BYTES];
    let mut redone = 0;
    for i in 0..3000 {
        case_bytes(9, 2, i, &mut full);
        let whole = P::generate(&mut Unstructured::new(&full), limits)
            .ok()
            .map(|(case, _)| case);
        let mut probe = Unstructured::new(&full[..FIRST_BYTES]);
        if P::generate(&mut probe, limits).is_err() || probe.is_empty() {
            redone += 1;
        }
        let campaign = generate_case_within::<P>(9, 2, i, &mut buf, limits);
        assert_eq!(campaign, whole, "{} case {i} ({limits:?})", P::NAME);
    }
    // The check means something only if some cases took the long way.
    if P::NAME == "duel" || P::NAME == "robots" {
        assert!(redone > 0, "no {} case needed the full buffer", P::NAME);
    }
}

#[test]
fn the_short_first_try_changes_no_case() {
    for limits in [CaseLimits::Wide, CaseLimits::Original] {
        lockstep_harness::each_puzzle!(short_first_try_changes_no_case(limits));
    }
}

/// Every puzzle's generator, asked for the original limits, keeps to them as
/// each puzzle's `within_original` (written from its rule page) checks. (For
/// duel and duel-search the check is `true`: their statement sets no limit a
/// reachable state could break; a puzzle added later is checked by default.)
#[test]
fn original_cases_keep_to_the_original_limits() {
    use lockstep_harness::campaign::generate_case_within;
    use lockstep_harness::puzzle::CaseLimits;
    fn check<P: Puzzle>(cases: u64) -> Option<String> {
        let mut buf = vec![0u8; CASE_BYTES];
        let mut made = 0;
        let outside = (0..cases).find_map(|index| {
            let case = generate_case_within::<P>(5, 0, index, &mut buf, CaseLimits::Original)?;
            made += 1;
            (!P::within_original(&case)).then(|| format!("{}: {}", P::NAME, case.write_input()))
        });
        // A generator that made nothing would pass the check above emptily.
        assert!(
            outside.is_some() || made == cases,
            "{}: {made} of {cases} cases made",
            P::NAME
        );
        outside
    }
    fn check_sample<P: Puzzle>() -> Option<String> {
        check::<P>(2 * crate::support::property_cases::<P>())
    }
    let outside: Vec<String> = lockstep_harness::each_puzzle!(check_sample())
        .into_iter()
        .flatten()
        .collect();
    assert!(
        outside.is_empty(),
        "outside the limits:\n{}",
        outside.join("\n")
    );
}

/// Every shrinker stays inside the original statement's limits when it starts
/// inside them, even under a predicate that accepts everything (so it goes as
/// far as its candidates allow): a finding of a run under `--limits original`
/// is then a case a judge could give. (`shrink_divergence` also refuses
/// candidates outside them under those limits, should a shrinker change.)
fn shrinking_stays_inside_the_original_limits<P: Sideways>() -> usize {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut checked = 0;
    for index in 0..100 {
        let Some(case) = generate_case_within::<P>(5, 0, index, &mut buf, CaseLimits::Original)
        else {
            continue;
        };
        let shrunk = lockstep_harness::shrink::shrink::<P>(case, |_| true, 2_000).case;
        assert!(
            P::within_original(&shrunk),
            "{} shrank outside the original limits:\n{}",
            P::NAME,
            shrunk.write_input()
        );
        checked += 1;
    }
    checked
}

#[test]
fn every_shrinker_stays_inside_the_original_limits() {
    let checked = lockstep_harness::each_puzzle!(shrinking_stays_inside_the_original_limits());
    assert!(checked.iter().all(|&n| n >= 90), "{checked:?}");
}

/// A generator that hands over the reference's result on its case
/// ([`Puzzle::generate`]) hands over exactly what the reference
/// gives on that case with the campaign's fuel: the campaign and the cargo-fuzz
/// targets judge the core against it without running the reference again.
/// Returns how many cases came with a result.
fn generated_reference_runs_are_the_references<P: Puzzle>(limits: CaseLimits) -> usize {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut handed = 0;
    for index in 0..3000 {
        let Some((case, generated)) =
            generate_case_with_reference::<P>(11, 1, index, &mut buf, limits)
        else {
            continue;
        };
        // The same case as the generator's own on the whole buffer.
        let mut full = vec![0u8; CASE_BYTES];
        case_bytes(11, 1, index, &mut full);
        assert_eq!(
            P::generate(&mut Unstructured::new(&full), limits)
                .ok()
                .map(|(case, _)| case),
            Some(case.clone()),
            "{} case {index}",
            P::NAME
        );
        let Some(generated) = generated else {
            continue;
        };
        let fresh = case.solve_naively(&mut Fuel::new(P::FUEL));
        assert_eq!(
            generated,
            fresh,
            "{} case {index} ({limits:?}):\n{}",
            P::NAME,
            case.write_input()
        );
        handed += 1;
    }
    handed
}

#[test]
fn generators_hand_over_the_references_own_result() {
    for limits in [CaseLimits::Wide, CaseLimits::Original] {
        fn handed<P: Puzzle>(limits: CaseLimits) -> (&'static str, usize) {
            (
                P::NAME,
                generated_reference_runs_are_the_references::<P>(limits),
            )
        }
        // Checkers plays every case forward, duel its games (a fifth); the
        // others play nothing. A generator that stopped handing results over
        // would pass the comparison above emptily.
        for (name, handed) in lockstep_harness::each_puzzle!(handed(limits)) {
            match name {
                "checkers" => assert!(handed > 2900, "checkers {limits:?}: {handed}"),
                "duel" => assert!((400..900).contains(&handed), "duel {limits:?}: {handed}"),
                _ => assert_eq!(handed, 0, "{name} {limits:?}"),
            }
        }
    }
}

/// Every input the recording core below was given, for the shard test.
static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

fn recording_core(
    case: &<Checkers as Puzzle>::Case,
) -> lockstep_harness::puzzle::Run<Vec<lockstep_core::checkers::Ruling>> {
    SEEN.lock().unwrap().push(case.write_input());
    case.solve()
}

/// The inputs a campaign of `jobs` jobs on `shard` checks, sorted.
fn inputs_of(seed: u64, jobs: usize, shard: Shard, cases: u64) -> Vec<String> {
    SEEN.lock().unwrap().clear();
    let options = lockstep_harness::campaign::CampaignOptions {
        plan: lockstep_search::Plan {
            shard,
            ..lockstep_search::Plan::cases(
                seed,
                cases,
                jobs,
                lockstep_harness::shrink::DIFFERENTIAL_BUDGET,
            )
        },
        stats: false,
        limits: CaseLimits::Wide,
    };
    let report =
        lockstep_harness::campaign::run_campaign_with::<Checkers>(&options, recording_core);
    assert!(report.finding.is_none());
    let mut seen = std::mem::take(&mut *SEEN.lock().unwrap());
    assert_eq!(seen.len() as u64, report.tally.cases);
    seen.sort();
    seen
}

/// N machines of J jobs each, `--shard K/N`, run between them exactly the
/// cases of one unsharded run of N x J jobs: each case once, none twice (the
/// multiset of inputs is the same), and each machine its equal share.
#[test]
fn shards_split_one_campaign_exactly() {
    for (machines, jobs) in [(2u64, 2usize), (4, 1), (3, 2)] {
        let cases = 120 * machines * jobs as u64;
        let whole = inputs_of(12, machines as usize * jobs, Shard::WHOLE, cases);
        assert_eq!(whole.len() as u64, cases);
        let mut shards: Vec<String> = Vec::new();
        for index in 0..machines {
            let shard = Shard {
                index,
                count: machines,
            };
            let part = inputs_of(12, jobs, shard, cases);
            assert_eq!(part.len() as u64, cases / machines, "{shard}");
            shards.extend(part);
        }
        shards.sort();
        assert_eq!(shards, whole, "{machines} machines of {jobs} jobs");
    }
    // Another seed's campaign is another set of cases: the comparison bites.
    assert_ne!(
        inputs_of(12, 2, Shard::WHOLE, 200),
        inputs_of(13, 2, Shard::WHOLE, 200)
    );
}

#[test]
fn a_shard_reads_as_k_of_n() {
    assert_eq!("2/5".parse::<Shard>(), Ok(Shard { index: 2, count: 5 }));
    assert_eq!(Shard { index: 2, count: 5 }.to_string(), "2/5");
    for bad in ["5/5", "1/0", "1", "a/2", "1/b", "-1/2"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
}

/// What shrinking in the campaign and in stress keeps to: any case under wide
/// limits, only the statement's cases under the original ones.
#[test]
fn original_limits_admit_only_the_statements_cases() {
    let inside = <Checkers as Puzzle>::Case::parse("1 1\n14\n18\n1 R\n14-23\n0 0\n").unwrap();
    let outside = <Checkers as Puzzle>::Case::parse("1 1\n14\n18\n1 R\n14-33\n0 0\n").unwrap();
    assert!(CaseLimits::Wide.admits::<Checkers>(&inside));
    assert!(CaseLimits::Wide.admits::<Checkers>(&outside));
    assert!(CaseLimits::Original.admits::<Checkers>(&inside));
    assert!(!CaseLimits::Original.admits::<Checkers>(&outside));
}

/// The body of every cargo-fuzz target, end to end on generated bytes: with
/// the real core it never reports, for every puzzle; against a core whose
/// digest is off by one it reports every case, including those whose
/// reference run the generator handed over (checkers, duel games).
fn fuzz_one_end_to_end<P: Puzzle>(broken: lockstep_harness::puzzle::Solver<P>) -> (usize, usize) {
    let mut bytes = vec![0u8; CASE_BYTES];
    let (mut reported, mut handed) = (0, 0);
    for index in 0..200 {
        case_bytes(21, 0, index, &mut bytes);
        lockstep_harness::fuzz_target::fuzz_one::<P>(&bytes);
        let Ok((case, generated)) = P::generate(&mut Unstructured::new(&bytes), CaseLimits::Wide)
        else {
            continue;
        };
        if lockstep_harness::puzzle::check::<P>(&case)
            == lockstep_harness::puzzle::Agreement::Timeout
        {
            continue;
        }
        handed += usize::from(generated.is_some());
        let caught = std::panic::catch_unwind(|| {
            lockstep_harness::fuzz_target::fuzz_one_with::<P>(&bytes, broken)
        });
        let message = caught.expect_err("a broken core passed fuzz_one");
        let text = message
            .downcast_ref::<String>()
            .expect("a formatted report");
        has(text, &["core and reference disagree"]);
        reported += 1;
    }
    (reported, handed)
}

fn off_by_one<P: Puzzle>(case: &P::Case) -> lockstep_harness::puzzle::Run<P::Answer> {
    let mut run = P::Case::solve(case);
    run.digest ^= 1;
    run
}

#[test]
fn the_fuzz_target_body_reports_a_broken_core_for_every_puzzle() {
    fn broken_core_reported<P: Puzzle>() -> (&'static str, (usize, usize)) {
        (P::NAME, fuzz_one_end_to_end::<P>(off_by_one::<P>))
    }
    let results = lockstep_harness::each_puzzle!(broken_core_reported());
    for (name, (reported, handed)) in results {
        assert!(reported >= 100, "{name}: {reported} of 200 reported");
        // The handed-over path is among the cases reported.
        if name == "checkers" || name == "duel" {
            assert!(handed >= 20, "{name}: {handed} handed over");
        }
    }
}

/// Branches no generated case can reach, each with the reason; the test
/// below requires them to stay unreached, so that one that becomes
/// reachable is taken off this list (and then held like the others).
const UNREACHED_BRANCHES: &[(&str, &str, &str)] = &[(
    "robots",
    "stopped at the move limit",
    "lockstep's own 100,000-move safeguard; no game comes near it (docs/guide/src/rules/robots.md)",
)];

/// Every puzzle reports rule branches for `--stats`, and the default
/// campaign's cases (the wide limits, a fixed seed, twice `property_cases`
/// cases) reach every one of them but the few listed as unreachable.
#[test]
fn the_default_campaign_reaches_every_rule_branch() {
    fn reached<P: Puzzle>() -> Vec<String> {
        let mut buf = vec![0u8; CASE_BYTES];
        let mut counts = vec![0u64; P::RULE_BRANCHES.len()];
        for index in 0..2 * crate::support::property_cases::<P>() {
            let Some(case) = generate_case::<P>(2026, 0, index, &mut buf) else {
                continue;
            };
            let bits = P::rule_branches(&case);
            for (i, count) in counts.iter_mut().enumerate() {
                *count += bits >> i & 1;
            }
        }
        let mut problems = Vec::new();
        if P::RULE_BRANCHES.is_empty() {
            problems.push(format!("{}: no rule branches", P::NAME));
        }
        for (name, count) in P::RULE_BRANCHES.iter().zip(&counts) {
            let exempt = UNREACHED_BRANCHES
                .iter()
                .any(|&(puzzle, branch, _)| puzzle == P::NAME && branch == *name);
            match (exempt, *count) {
                (false, 0) => problems.push(format!("{}: {name:?} never reached", P::NAME)),
                (true, n) if n > 0 => problems.push(format!(
                    "{}: {name:?} is listed as unreachable but was reached {n} times",
                    P::NAME
                )),
                _ => {}
            }
        }
        problems
    }
    let problems = lockstep_harness::each_puzzle!(reached()).concat();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What a puzzle says `verify`'s levels are not asked to reach names its
/// own rule branches, each once, with a reason: a misspelt name would
/// otherwise shrink the count of branches to reach and leave the real
/// branch required.
#[test]
fn branches_checked_elsewhere_are_rule_branches() {
    fn problems<P: Verifiable>() -> Vec<String> {
        let mut problems = Vec::new();
        for (i, &(branch, reason)) in P::CHECKED_ELSEWHERE.iter().enumerate() {
            if !P::RULE_BRANCHES.contains(&branch) {
                problems.push(format!("{}: {branch:?} is not a rule branch", P::NAME));
            }
            if P::CHECKED_ELSEWHERE[..i].iter().any(|&(b, _)| b == branch) {
                problems.push(format!("{}: {branch:?} listed twice", P::NAME));
            }
            if reason.trim().is_empty() {
                problems.push(format!("{}: {branch:?} has no reason", P::NAME));
            }
        }
        problems
    }
    let problems = lockstep_harness::each_puzzle!(problems()).concat();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
