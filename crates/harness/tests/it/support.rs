//! Helpers shared by the harness's test modules: campaign options, the
//! planted-bug hunt, scratch directories.

use lockstep_harness::puzzle::{Counting, Verifiable};
use lockstep_harness::shrink::Sideways;
use std::path::{Path, PathBuf};

/// Asserts that `text` holds every one of `needles`, showing the whole
/// text when one is missing.
#[track_caller]
pub fn has(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "{needle:?} is missing from:\n{text}");
    }
}

/// The directory `dir`, made with its parents.
pub fn made(dir: PathBuf) -> PathBuf {
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The judge answer to `text` of `P`'s core, asserted to be the
/// reference's too.
#[track_caller]
pub fn both_answer<P: lockstep_harness::puzzle::Puzzle>(text: &str) -> String {
    use lockstep_core::Model;
    use lockstep_reference::Naive;
    let case = P::Case::parse(text).unwrap();
    let core = P::Case::write_answer(&case.solve().answer);
    let fuel = &mut lockstep_reference::Fuel::unlimited();
    let naive = P::Case::write_answer(&case.solve_naively(fuel).unwrap().answer);
    assert_eq!(core, naive, "core and reference disagree on\n{text}");
    core
}

#[path = "../../../../tests/common/scratch.rs"]
mod scratch;
pub use scratch::scratch;

#[path = "../../../../tests/common/campaign.rs"]
mod campaign;
pub use campaign::campaign_options;

/// A campaign (seed 8, 20,000 cases) against `core`, a broken core of `P`:
/// its first finding's corpus row checked whole (the input reads back as the
/// shrunk case, the expected answer is the reference's, the note names the
/// first difference), returned with the shrunk case for the puzzle's own
/// bounds on its size.
pub fn broken_core_row<P: Verifiable + Sideways + Counting>(
    core: lockstep_harness::puzzle::Solver<P>,
) -> (P::Case, lockstep_harness::corpus::Row) {
    use lockstep_core::Model;
    use lockstep_harness::corpus::{decode_for, encode_for};
    use lockstep_reference::Naive;
    let report =
        lockstep_harness::campaign::run_campaign_with::<P>(&campaign_options(8, 20_000), core);
    assert!(report.tally.failed >= 1);
    let (_, finding) = report.finding.expect("the broken core is found");
    let row = finding.row;
    let shrunk = P::Case::parse(&decode_for::<P>(&row.input)).unwrap();
    assert_eq!(shrunk, finding.shrunk.case);
    let naive = shrunk
        .solve_naively(&mut lockstep_reference::Fuel::unlimited())
        .unwrap();
    assert_eq!(
        row.expected,
        encode_for::<P>(&P::Case::write_answer(&naive.answer))
    );
    has(&row.note, &["first difference at line "]);
    (shrunk, row)
}

/// The shipped corpus directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// The guard of a puzzle's planted-bug hunt: its third implementation with
/// no bug planted agrees with the reference on the first `cases` cases of
/// seed 5 (a broken third would make every planted bug "found" for the
/// wrong reason).
pub fn third_agrees<P: lockstep_harness::puzzle::Puzzle>(
    third: impl Fn(&P::Case) -> lockstep_harness::puzzle::Run<P::Answer>,
    cases: u64,
    fuel: u64,
) {
    use lockstep_core::Model;
    let mut buf = vec![0u8; lockstep_search::seeds::CASE_BYTES];
    for index in 0..cases {
        let case = lockstep_harness::generate::generate_case::<P>(5, 0, index, &mut buf).unwrap();
        assert_eq!(
            lockstep_harness::puzzle::check_with::<P>(&case, &third, fuel),
            lockstep_harness::puzzle::Agreement::Agree,
            "{}",
            case.write_input()
        );
    }
}

/// A solver under test as any closure (a planted bug may capture what it needs).
pub type AnySolver<'a, P> = Box<
    dyn Fn(
            &<P as lockstep_harness::puzzle::Puzzle>::Case,
        )
            -> lockstep_harness::puzzle::Run<<P as lockstep_harness::puzzle::Puzzle>::Answer>
        + 'a,
>;

/// A test on a case.
pub type CaseTest<'a, P> = Box<dyn Fn(&<P as lockstep_harness::puzzle::Puzzle>::Case) -> bool + 'a>;

/// One planted bug for [`planted_bugs`]: its name, its solver (any closure
/// over a case), and when a shrunk case counts as small.
pub struct PlantedBug<'a, P: lockstep_harness::puzzle::Puzzle> {
    pub name: &'a str,
    pub solver: AnySolver<'a, P>,
    pub small: CaseTest<'a, P>,
}

/// How [`planted_bugs`] hunts one puzzle's bugs.
pub struct Hunt<'a, P: lockstep_harness::puzzle::Puzzle> {
    /// The reference's fuel in the check.
    pub fuel: u64,
    /// Cases searched, from seed 2024.
    pub max_cases: u64,
    /// Findings shrunk before giving up on a small one (some robots failures
    /// shrink to local minima; the next finding may not).
    pub max_findings: usize,
    /// The cases the hunt may use (footholds: boards the reference finishes).
    pub within: &'a dyn Fn(&P::Case) -> bool,
    /// A shrunk case in a few words, for the report.
    pub describe: &'a dyn Fn(&P::Case) -> String,
}

/// The one planted-bug harness: each bug is hunted through the campaign's
/// `find_and_shrink` (the first case from seed 2024 on which it disagrees
/// with the reference, shrunk under that disagreement); the real core must
/// agree on the shrunk case, which must be small. Every bug is tried, then
/// the problems are asserted at once.
pub fn planted_bugs<P: Sideways>(hunt: &Hunt<'_, P>, bugs: &[PlantedBug<'_, P>]) {
    use lockstep_harness::puzzle::{check, check_with, Agreement};
    assert!(!bugs.is_empty(), "no planted bugs to hunt");
    let mut problems = Vec::new();
    for bug in bugs {
        let diverges = |case: &P::Case| {
            (hunt.within)(case) && check_with::<P>(case, &bug.solver, hunt.fuel).is_divergence()
        };
        let (mut next, mut findings, mut last) = (0, 0, None);
        while let Some((index, shrunk)) =
            lockstep_harness::campaign::find_and_shrink::<P>(2024, next..hunt.max_cases, diverges)
        {
            let shrunk = shrunk.case;
            assert_eq!(
                check::<P>(&shrunk),
                Agreement::Agree,
                "{}: the real core must agree on {shrunk:?}",
                bug.name
            );
            let small = (bug.small)(&shrunk);
            findings += 1;
            next = index + 1;
            last = Some((index, shrunk));
            if small || findings == hunt.max_findings {
                break;
            }
        }
        let Some((index, shrunk)) = last else {
            problems.push(format!(
                "{}: not found in {} cases",
                bug.name, hunt.max_cases
            ));
            continue;
        };
        let shown = (hunt.describe)(&shrunk);
        println!(
            "{}: {findings} finding(s), the last from case {index}: {shown}",
            bug.name
        );
        if !(bug.small)(&shrunk) {
            problems.push(format!("{}: shrunk only to {shown}", bug.name));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// How many generated cases the quick checks (the quickcheck property, the
/// input round trip, a finding's round trip) run on puzzle `P`: sized so
/// that one takes about a second in the test profile. A knob of these
/// tests, so it is kept here, by module; a puzzle not named takes 3,000.
pub fn property_cases<P: lockstep_harness::puzzle::Puzzle>() -> u64 {
    match P::MODULE {
        "robots" | "matrix_game" => 1_000,
        "checkers_perft" | "duel_search" => 300,
        _ => 3_000,
    }
}
