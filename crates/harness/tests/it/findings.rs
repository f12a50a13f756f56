//! A finding's whole path, for every puzzle: a deliberately broken core is
//! found by a campaign, its row is appended to a scratch corpus, and that row
//! fails replay against the broken core and passes against the real one. The
//! same round trip for a cargo-fuzz artifact (through triage). And every
//! answer shape through the corpus encoding.

use crate::support::{made, scratch};
use lockstep_core::Model;
use lockstep_harness::campaign::{self, Solver};
use lockstep_harness::corpus::{self, Appended, Row};
use lockstep_harness::decode::Encoding;
use lockstep_harness::puzzle::{run_reference, Counting, Listed, Puzzle, Verifiable};
use lockstep_harness::puzzles::Robots;
use lockstep_harness::replay;
use lockstep_harness::shrink::Sideways;
use lockstep_harness::triage::{self, Reproduce};
use lockstep_search::seeds::{case_bytes, CASE_BYTES};
use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// A note holds what a person needs, never a whole answer.
const NOTE_LIMIT: usize = 600;

/// What one puzzle's round trip measured.
struct RoundTrip {
    row_bytes: usize,
    expected_lines: usize,
}

/// The campaign → row → replay round trip, then the artifact → triage → row →
/// replay round trip, for one puzzle and one broken core.
fn round_trip<P: Verifiable + Sideways + Counting>(
    broken: Solver<P>,
    max_cases: u64,
) -> Result<RoundTrip, String> {
    let name = P::NAME;
    let dir = scratch(&format!("round-trip-{}", P::MODULE));
    let path = corpus::path_for::<P>(&dir);
    let options = crate::support::campaign_options(7, max_cases);
    let (address, finding) = campaign::run_campaign_with::<P>(&options, broken)
        .finding
        .ok_or_else(|| format!("{name}: the broken core was not found in {max_cases} cases"))?;
    let row = finding.row;

    // The row's expected answer is exactly the reference's judge output for the
    // row's own input, in the puzzle's line-break encoding.
    let case = P::Case::parse(&corpus::decode_for::<P>(&row.input))
        .map_err(|e| format!("{name}: the row's input does not parse: {e}"))?;
    let reference = run_reference::<P>(&case, P::FUEL.saturating_mul(10))
        .and_then(|side| side.answer().cloned())
        .ok_or_else(|| format!("{name}: the reference does not answer the row's input"))?;
    let reference_text = P::Case::write_answer(&reference);
    if row.expected != corpus::encode_for::<P>(&reference_text) {
        return Err(format!(
            "{name}: expected is not the reference's answer: {:?}",
            row.expected
        ));
    }
    if row.note.len() > NOTE_LIMIT {
        return Err(format!("{name}: a note of {} bytes", row.note.len()));
    }

    match corpus::append::<P>(&path, row.clone()) {
        Ok(Appended::Written(written)) if written == row.name => {}
        other => return Err(format!("{name}: append gave {other:?}")),
    }
    let row_bytes = fs::read(&path).unwrap().len() - corpus::COLUMNS.join(",").len() - 1;
    check_replays::<P>(&path, broken, 1)?;

    // The same case as a cargo-fuzz artifact: the generator's bytes, which is
    // what libFuzzer saves. Beside it, the bytes of a case the broken core
    // gets right, which must not reproduce.
    let artifacts = made(dir.join("artifacts"));
    let mut buf = vec![0u8; CASE_BYTES];
    let lockstep_search::Address::Stream { job, index } = address else {
        unreachable!("a campaign's case at {address}");
    };
    case_bytes(options.plan.seed, job, index, &mut buf);
    fs::write(artifacts.join("crash-found"), &buf).unwrap();
    let agreeing = (0..1000)
        .find_map(|i| {
            let case = campaign::generate_case::<P>(99, 0, i, &mut buf)?;
            let verdict = lockstep_harness::puzzle::check_with::<P>(&case, broken, P::FUEL);
            (verdict == lockstep_harness::puzzle::Agreement::Agree).then(|| buf.clone())
        })
        .ok_or_else(|| format!("{name}: no case the broken core gets right"))?;
    fs::write(artifacts.join("timeout-agrees"), &agreeing).unwrap();

    let triaged = scratch(&format!("round-trip-{}-triaged", P::MODULE));
    let reproduce: Reproduce = Arc::new(move |bytes: &[u8]| {
        campaign::reproduce::<P>(bytes, Encoding::Bytes, broken, "test artifact")
            .map(|f| (String::new(), f.row))
    });
    let record = |row: Row| corpus::record::<P>(&triaged, row);
    let report = triage::triage_target(
        P::MODULE,
        &artifacts,
        &reproduce,
        &record,
        Duration::from_secs(120),
    )
    .unwrap();
    if (report.artifacts, report.appended, report.not_reproduced) != (2, 1, 1) {
        return Err(format!("{name}: triage counted {report:?}"));
    }
    for file in ["crash-found", "timeout-agrees"] {
        if !artifacts.join("done").join(file).exists() || artifacts.join(file).exists() {
            return Err(format!("{name}: {file} was not moved to done/"));
        }
    }
    let triaged_path = corpus::path_for::<P>(&triaged);
    check_replays::<P>(&triaged_path, broken, 1)?;
    // The artifact's row is the campaign's: the same case, shrunk the same way.
    let from_artifact = corpus::load::<P>(&triaged_path).unwrap();
    if from_artifact[0].case != case {
        return Err(format!("{name}: the artifact shrank to another case"));
    }
    Ok(RoundTrip {
        row_bytes,
        expected_lines: lockstep_text::judge_lines(&reference_text).len(),
    })
}

/// `rows` rows of `path` fail replay against `broken`, and all pass against
/// the real core.
fn check_replays<P: Puzzle>(path: &Path, broken: Solver<P>, rows: usize) -> Result<(), String> {
    let name = P::NAME;
    let against_broken = replay::replay_with::<P>(path, broken).map_err(|e| format!("{e:#}"))?;
    if against_broken.rows != rows || against_broken.failures.len() != rows {
        return Err(format!(
            "{name}: {} of {} rows fail against the broken core, {rows} should",
            against_broken.failures.len(),
            against_broken.rows
        ));
    }
    let fixed = replay::replay::<P>(path).map_err(|e| format!("{e:#}"))?;
    if !fixed.failures.is_empty() {
        return Err(format!(
            "{name}: the row fails against the real core: {}",
            fixed.failures[0].problem
        ));
    }
    Ok(())
}

/// Every answer shape of every puzzle survives the corpus encoding: the
/// reference's judge output, encoded and decoded, is the same judge output, and
/// so is the input (it parses back to the same case).
#[test]
fn every_answer_shape_survives_the_corpus_encoding() {
    fn check<P: Puzzle>(cases: u64) -> Vec<String> {
        let mut buf = vec![0u8; CASE_BYTES];
        let mut problems = Vec::new();
        let mut answers = 0u64;
        for index in 0..cases {
            let Some(case) = campaign::generate_case::<P>(11, 0, index, &mut buf) else {
                continue;
            };
            let input = case.write_input();
            let decoded = corpus::decode_for::<P>(&corpus::encode_for::<P>(&input));
            if P::Case::parse(&decoded).ok().as_ref() != Some(&case) {
                problems.push(format!("{}: input {input:?} does not survive", P::NAME));
            }
            let Some(answer) = run_reference::<P>(&case, P::FUEL).and_then(|s| s.answer().cloned())
            else {
                continue;
            };
            answers += 1;
            let text = P::Case::write_answer(&answer);
            let field = corpus::encode_for::<P>(&text);
            if field.contains('\n')
                || !lockstep_text::same_output(&corpus::decode_for::<P>(&field), &text)
            {
                problems.push(format!("{}: answer {text:?} does not survive", P::NAME));
            }
        }
        problems.truncate(3);
        // Skipped cases are no check: most of the sample must be answered.
        if answers * 2 < cases {
            problems.push(format!(
                "{}: only {answers} of {cases} cases answered",
                P::NAME
            ));
        }
        problems
    }
    fn check_sample<P: Puzzle>() -> Vec<String> {
        check::<P>(crate::support::property_cases::<P>() / 2)
    }
    let problems = lockstep_harness::each_puzzle!(check_sample()).concat();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The second tier: the heavy hunts, which `cargo test` leaves to CI
/// (`.ci/run`; docs/guide/src/tasks/measure.md).
mod hunt {
    use super::*;

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn a_finding_from_every_puzzle_fails_replay_until_the_core_is_fixed() {
        // The first planted bug of each puzzle's catalogue.
        macro_rules! round_trips {
            ($($ty:ident $m:ident $name:literal [$($flag:ident)*],)*) => {
                [$({
                    type P = lockstep_harness::puzzles::$ty;
                    let (_, bug) = lockstep_planted::$m::bugs()[0];
                    (P::NAME, round_trip::<P>(bug, 20 * crate::support::property_cases::<P>()))
                }),*]
            };
        }
        let results = lockstep_harness::for_each_puzzle!(round_trips);
        let mut problems = Vec::new();
        let mut largest = 0;
        for (name, result) in results {
            match result {
                Ok(trip) => {
                    println!(
                        "{name}: row of {} bytes, expected answer of {} line(s)",
                        trip.row_bytes, trip.expected_lines
                    );
                    largest = largest.max(trip.row_bytes);
                    // Robots answers are several lines whatever the case: the
                    // multi-line shape is really exercised.
                    if name == Robots::NAME && trip.expected_lines < 2 {
                        problems.push(format!("{name}: a one-line answer"));
                    }
                }
                Err(problem) => problems.push(problem),
            }
        }
        println!("largest row: {largest} bytes");
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
