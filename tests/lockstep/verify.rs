//! `lockstep verify` held to what it claims: each level's decoding against
//! a count made another way (every case valid and different), each
//! symmetry keeping the core's answer, a run with symmetry against one
//! without, shards against the whole, the first disagreement of planted
//! bugs against every case before it, and the command end to end.

use crate::support::{cli, exited, has, passed, scratch, written};
use lockstep::campaign::{run_campaign_with, CampaignOptions, CampaignOutcome, LevelCertificate};
use lockstep::puzzle::{check_with, CaseLimits, Puzzle, Solver};
use lockstep::puzzles::{
    Checkers, CheckersPerft, Duel, DuelSearch, Footholds, MatrixGame, NewGame2, Robots,
};
use lockstep::search::{Address, Enumeration, Plan, Shard};
use lockstep_core::Model;
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
            }),
            max_cases: None,
            ..Plan::cases(0, 0, 2, lockstep::shrink::DIFFERENTIAL_BUDGET)
        },
        stats: false,
        limits: CaseLimits::Original,
    }
}

fn verified<P: Puzzle>(up_to: u32, symmetry: bool, shard: Shard) -> CampaignOutcome<P::Case> {
    run_campaign_with::<P>(&options(up_to, symmetry, shard, false), P::Case::solve)
}

/// Every level up to `up_to`: the valid cases decoded number what the
/// level's count says, each reads back from its judge input, lies within
/// the statement's limits, and differs from every other.
fn levels_hold_their_counts<P: Puzzle>(up_to: u32) {
    for size in 1..=up_to {
        let mut inputs = HashSet::new();
        each_case::<P>(size, |index, case| {
            let text = case.write_input();
            assert_eq!(P::Case::parse(&text).as_ref(), Ok(&case), "{text}");
            assert!(P::within_original(&case), "{text}");
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

#[test]
fn every_level_holds_its_count_of_different_valid_cases() {
    let checks: [(fn(u32), u32); 8] = [
        (levels_hold_their_counts::<Footholds>, 9),
        (levels_hold_their_counts::<MatrixGame>, 6),
        (levels_hold_their_counts::<CheckersPerft>, 2),
        (levels_hold_their_counts::<DuelSearch>, 6),
        (levels_hold_their_counts::<Checkers>, 2),
        (levels_hold_their_counts::<Robots>, 2),
        (levels_hold_their_counts::<NewGame2>, 1),
        (levels_hold_their_counts::<Duel>, 1),
    ];
    for (check, up_to) in checks {
        check(up_to);
    }
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
    images_keep_the_answer::<Footholds>(9);
    images_keep_the_answer::<CheckersPerft>(2);
    images_keep_the_answer::<Checkers>(2);
    images_keep_the_answer::<NewGame2>(1);
}

/// Each puzzle's pick of the case checked for a class picks exactly one
/// case of each, counted with the class's size: held case by case to the
/// images, which the pick itself need not build.
fn least_picks_one_of_each_class<P: Puzzle>(up_to: u32) {
    for size in 1..=up_to {
        each_case::<P>(size, |_, case| {
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
    least_picks_one_of_each_class::<Footholds>(9);
    least_picks_one_of_each_class::<CheckersPerft>(2);
    least_picks_one_of_each_class::<Checkers>(2);
    least_picks_one_of_each_class::<NewGame2>(1);
    least_picks_one_of_each_class::<Robots>(2);
    least_picks_one_of_each_class::<MatrixGame>(6);
    least_picks_one_of_each_class::<DuelSearch>(2);
    least_picks_one_of_each_class::<Duel>(1);
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
    assert!(checked * 3 < all, "{checked} classes for {all} cases");
    let checkers = [true, false].map(|s| verified::<CheckersPerft>(2, s, Shard::WHOLE).levels);
    assert_eq!(totals(&checkers[0]), totals(&checkers[1]));
}

/// Three machines' certificates add up to the certificate of one: cases,
/// classes and digest, level by level.
#[test]
fn shards_add_up_to_the_whole_certificate() {
    let whole = verified::<Footholds>(8, true, Shard::WHOLE).levels;
    let mut sum: Vec<LevelCertificate> = whole
        .iter()
        .map(|l| LevelCertificate {
            size: l.size,
            ..LevelCertificate::default()
        })
        .collect();
    for index in 0..3 {
        let part = verified::<Footholds>(8, true, Shard { index, count: 3 }).levels;
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

/// The disagreement verify reports for a broken core is the first of the
/// enumeration: no case before it (smaller, or of its size and a lower
/// index) disagrees.
fn first_is_smallest<P: Puzzle>(solver: Solver<P>, up_to: u32) -> Address {
    let outcome = run_campaign_with::<P>(&options(up_to, false, Shard::WHOLE, false), solver);
    let (address, finding) = outcome.finding.expect("the planted bug is found");
    let Address::Sized { size, index } = address else {
        panic!("{address}")
    };
    assert_eq!(finding.row.origin, lockstep::corpus::Origin::Verify);
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

#[test]
fn the_command_prints_a_certificate_and_its_json() {
    let out = cli("verify footholds matrix-game --size 3 --no-append").run();
    let stdout = passed(&out);
    has(
        &stdout,
        &[
            "footholds: size = board cells",
            "verified: every case up to size 3 agrees (61 cases)",
            "verified: every case up to size 3 agrees (75 cases)",
        ],
    );
    let out = cli("verify footholds --size 4 --format json --no-append --jobs 1").run();
    let doc: serde_json::Value = serde_json::from_str(&passed(&out)).unwrap();
    let puzzle = &doc["puzzles"][0];
    assert_eq!(puzzle["verified"], true, "{doc}");
    assert_eq!(puzzle["cases"], 1 + 12 + 48 + 240, "{doc}");
    assert_eq!(puzzle["levels"].as_array().map(Vec::len), Some(4), "{doc}");
    // The same levels on two jobs give the same certificate.
    let again = cli("verify footholds --size 4 --format json --no-append --jobs 2").run();
    let again: serde_json::Value = serde_json::from_str(&passed(&again)).unwrap();
    let digests = |d: &serde_json::Value| {
        let levels = d["puzzles"][0]["levels"].as_array().cloned().unwrap();
        levels
            .iter()
            .map(|l| l["digest"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(digests(&doc), digests(&again));
    // `lockstep report` shows the certificate.
    let dir = scratch("verify-report");
    let json = written(dir.join("verify.json"), again.to_string());
    let page = dir.join("page.html");
    passed(&cli("report").arg(&json).flag("--out", page.display()).run());
    let html = std::fs::read_to_string(&page).unwrap();
    has(
        &html,
        &["verify: footholds", "verified: every case up to size 4"],
    );
}

#[test]
fn a_case_replays_as_printed_and_another_kind_of_address_is_an_error() {
    let out = cli("verify footholds --no-append")
        .flag("--case", "size 2 case 5")
        .run();
    passed(&out);
    let out = cli("verify footholds --no-append")
        .flag("--case", "job 0 case 3")
        .run();
    exited(&out, 2, "");
}

/// Every puzzle's first level through the command end to end: each is
/// verified, its certificate's cases are its level's count.
#[test]
fn every_puzzle_verifies_its_first_level_through_the_command() {
    let out = cli("verify --size 1 --format json --no-append").run();
    let doc: serde_json::Value = serde_json::from_str(&passed(&out)).unwrap();
    let puzzles = doc["puzzles"].as_array().cloned().unwrap_or_default();
    assert_eq!(puzzles.len(), lockstep::registry::all().len(), "{doc}");
    for (p, entry) in puzzles.iter().zip(lockstep::registry::all()) {
        assert_eq!(p["puzzle"], entry.name(), "{doc}");
        assert_eq!(p["verified"], true, "{p}");
        assert_eq!(p["cases"], entry.level_counts(1)[0], "{p}");
        // The built-in certificate (certificates/ci.json) holds this build.
        assert_eq!(p["against_certificate"][0]["against"], "same", "{p}");
    }
}

/// `text`, a recorded certificate, with the digest of `puzzle`'s level at
/// `at` (in file order) changed in its last digit: the new digest, and the
/// changed text.
fn one_digest_changed(text: &str, puzzle: &str, at: usize) -> (String, String) {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let digest = doc["puzzles"][puzzle][at]["digest"].as_str().unwrap();
    let last = if digest.ends_with('0') { "1" } else { "0" };
    let other = format!("{}{last}", &digest[..15]);
    (other.clone(), text.replace(digest, &other))
}

/// A recorded certificate holds the next run: the same levels pass, a
/// level whose digest is not the recorded one fails the run and says how to
/// record it again, and a file that is not a certificate is an error.
#[test]
fn a_recorded_certificate_holds_the_next_run() {
    let dir = scratch("verify-record");
    let file = dir.join("certificate.json");
    let out = cli("verify footholds matrix-game --size 3 --no-append")
        .arg("--record")
        .arg(&file)
        .run();
    passed(&out);
    // Written whole: the certificate and no temporary beside it.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["certificate.json"]);
    let text = std::fs::read_to_string(&file).unwrap();
    let out = cli("verify footholds matrix-game --size 3 --no-append")
        .arg("--certificate")
        .arg(&file)
        .run();
    let stdout = passed(&out);
    assert_eq!(stdout.matches(" same ").count(), 6, "{stdout}");
    // Size 4 is not in the file: checked, not compared.
    let out = cli("verify footholds --size 4 --from 4 --no-append")
        .arg("--certificate")
        .arg(&file)
        .run();
    has(&passed(&out), &["verified"]);
    // One digest changed by a digit: that level differs, the run fails.
    let (other, changed) = one_digest_changed(&text, "footholds", 1);
    let changed = written(dir.join("changed.json"), changed);
    let out = cli("verify footholds --size 3 --no-append")
        .arg("--certificate")
        .arg(&changed)
        .run();
    let (stdout, _) = exited(&out, 1, "");
    has(
        &stdout,
        &[
            "DIFFERS",
            &format!("recorded 12 cases, 3 checked, digest {other}"),
            "record it again",
            "not verified up to size 3",
        ],
    );
    // A JSON file that is not a certificate, and one that is not JSON.
    for (name, text) in [
        ("other.json", "{\"lockstep\": \"verify\"}\n"),
        ("bad.json", "{\n  [\n"),
    ] {
        let bad = written(dir.join(name), text);
        let out = cli("verify footholds --size 1 --no-append")
            .arg("--certificate")
            .arg(&bad)
            .run();
        let (_, stderr) = exited(&out, 2, "");
        assert!(stderr.contains("is not a recorded certificate"), "{stderr}");
    }
    // A shard cannot be recorded.
    let out = cli("verify footholds --size 1 --shard 0/2 --no-append")
        .arg("--record")
        .arg(&file)
        .run();
    exited(&out, 2, "");
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
    let outcome = lockstep::campaign::run_campaign_reading::<Footholds>(
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
    // The sampled classes: the least member of its class, at an index that
    // verify checks the judge format of; at size 2 every one is misread.
    let mut sampled = Vec::new();
    each_case::<Footholds>(2, |index, case| {
        let least = (Footholds::LEVELS.least)(&case).is_some();
        if least && lockstep::campaign::judged(index) {
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

/// `scripts/verify-merge`, the nightly workflow's last step: two shards'
/// JSON add up to the recorded certificate of the whole ("same", exit 0);
/// one digest changed in the record makes that level differ (exit 1); a
/// shard file missing is an error (exit 2).
#[test]
fn the_nightly_merge_adds_shards_up_to_the_recorded_certificate() {
    let dir = scratch("verify-merge");
    let record = dir.join("night.json");
    let out = cli("verify footholds matrix-game --size 3 --no-append")
        .arg("--record")
        .arg(&record)
        .run();
    passed(&out);
    let mut shards = Vec::new();
    for k in 0..2 {
        let out = cli(&format!(
            "verify footholds matrix-game --size 3 --shard {k}/2 --format json --no-append"
        ))
        .run();
        shards.push(written(dir.join(format!("verify-{k}.json")), passed(&out)));
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/verify-merge");
    let merge = |record: &std::path::Path, shards: &[std::path::PathBuf]| {
        std::process::Command::new("python3")
            .arg(&script)
            .arg(record)
            .args(shards)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let stdout = passed(&merge(&record, &shards));
    // Six levels (sizes 1 to 3 of two puzzles), every one the record's.
    assert_eq!(stdout.matches("| same |").count(), 6, "{stdout}");
    let text = std::fs::read_to_string(&record).unwrap();
    let (_, changed) = one_digest_changed(&text, "footholds", 2);
    let changed = written(dir.join("changed.json"), changed);
    let (stdout, _) = exited(&merge(&changed, &shards), 1, "");
    has(&stdout, &["| footholds | 3 |", "DIFFERS"]);
    assert_eq!(stdout.matches("| same |").count(), 5, "{stdout}");
    // One shard alone is not the whole: its levels differ from the record.
    let (stdout, _) = exited(&merge(&record, &shards[..1]), 1, "");
    has(&stdout, &["DIFFERS"]);
    let (_, stderr) = exited(&merge(&record, &[dir.join("none.json")]), 2, "");
    has(&stderr, &["none.json"]);
}

/// Every puzzle has levels, and `--levels` lists each level's count
/// without checking a case.
#[test]
fn every_puzzle_has_levels_and_they_can_be_listed() {
    let out = cli("verify --levels --size 2").run();
    let stdout = passed(&out);
    for entry in lockstep::registry::all() {
        has(&stdout, &[&format!("{}: size = ", entry.name())]);
    }
    has(
        &stdout,
        &["footholds: size = board cells", "     2             12"],
    );
}

/// Each planted bug against `verify --scope night` (one case per class),
/// 120 seconds at most a bug: the first disagreement's address and the time
/// it took, printed as a table (`cargo test --release --test lockstep
/// planted_bugs_by_size -- --ignored --nocapture`). The footholds and
/// matrix game bugs show on the smallest boards, so each must be found; the
/// other puzzles' levels leave parts of their rules (skills, long games,
/// crowded boards) to `fuzz`, and their rows say how far verify got.
#[test]
#[ignore = "a measurement of minutes; run by hand for the figures"]
fn planted_bugs_by_size() {
    fn hunt<P: Puzzle>(name: &str, bug: Solver<P>, missed: &mut Vec<String>) {
        let must = [Footholds::NAME, MatrixGame::NAME];
        let mut options = options(P::LEVELS.night, true, Shard::WHOLE, false);
        // A bug that must be found is hunted to the end of the levels, so
        // that no clock decides the assertion; the others for 120 s.
        if !must.contains(&P::NAME) {
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
        ($($ty:ident $m:ident [$($flag:ident)?],)*) => {
            $(for (name, bug) in lockstep_planted::$m::bugs() {
                hunt::<lockstep::puzzles::$ty>(name, bug, &mut missed);
            })*
        };
    }
    eprintln!("| puzzle | planted bug | first disagreement | seconds |\n|---|---|---|---:|");
    lockstep::for_each_puzzle!(every_bug);
    assert!(missed.is_empty(), "not found: {missed:?}");
}

/// A run resumed at a level (`--from`) gives those levels the very
/// certificates of a whole run, and is verified on them alone.
#[test]
fn a_run_resumed_at_a_level_certifies_it_as_the_whole_run_does() {
    let levels = |extra: &str| -> serde_json::Value {
        let out = cli(&format!(
            "verify footholds matrix-game --size 6 --format json --no-append {extra}"
        ))
        .run();
        let doc: serde_json::Value = serde_json::from_str(&passed(&out)).unwrap();
        doc
    };
    let (whole, resumed) = (levels(""), levels("--from 4"));
    for p in 0..2 {
        let (w, r) = (&whole["puzzles"][p], &resumed["puzzles"][p]);
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["from"], 4, "{r}");
        let tail: Vec<_> = w["levels"].as_array().unwrap()[3..].to_vec();
        assert_eq!(r["levels"].as_array().unwrap(), &tail, "{r}");
    }
}

/// A start past the last size is an error, not a vacuous "verified".
#[test]
fn a_start_past_the_last_size_is_an_error() {
    let out = cli("verify new-game2 --from 3 --no-append").run();
    assert_eq!(out.status.code(), Some(2));
    has(
        &String::from_utf8_lossy(&out.stderr),
        &["new-game2: --from 3 is past its last size here, 1"],
    );
}
