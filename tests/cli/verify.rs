//! `lockstep verify` held to what it claims: each level's decoding against
//! a count made another way (every case valid and different), each
//! symmetry keeping the core's answer, a run with symmetry against one
//! without, shards against the whole, the first disagreement of planted
//! bugs against every case before it, and the command end to end.

use crate::support::{cli, exited, has, passed, scratch, written};

#[test]
fn the_command_prints_a_certificate_and_its_json() {
    let out = cli("verify footholds matrix-game --size 3 --no-append").run();
    let stdout = passed(&out);
    has(
        &stdout,
        &[
            "footholds: size = board cells",
            // Both figures: the cases run, and the cases they stand for.
            "verified: every case up to size 3 agrees: 17 cases run by both sides, 61 with their symmetric images run by the core, reaching",
            "verified: every case up to size 3 agrees: 75 cases run, reaching",
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
        .flag("--case", "size 3 case 7")
        .run();
    has(
        &passed(&out),
        &["checked only `size 3 case 7`: core and reference agree"],
    );
    // An address with no case is an error, not a run that checked nothing
    // (and no report that calls the nothing checked agreed): index 5 of
    // size 2 is not a valid case, 999999999 is past the level (the error
    // names its count), and size 30 is past the run's last size.
    for (address, says) in [
        ("size 2 case 5", "there is no case"),
        (
            "size 3 case 999999999",
            "its indices are 0 to 143 (48 valid cases",
        ),
        ("size 30 case 1", "this run's sizes are 1 to 12"),
    ] {
        let out = cli("verify footholds --no-append")
            .flag("--case", address)
            .run();
        let (stdout, stderr) = exited(&out, 2, address);
        has(&stderr, &[says]);
        assert!(!stdout.contains("agree"), "{address}: {stdout}");
    }
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
    assert_eq!(puzzles.len(), lockstep_registry::all().len(), "{doc}");
    for (p, entry) in puzzles.iter().zip(lockstep_registry::all()) {
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

/// Records the certificate of footholds and matrix-game up to size 3 into
/// `file`; the run passes.
fn record_small(file: &std::path::Path) {
    let out = cli("verify footholds matrix-game --size 3 --no-append")
        .arg("--record")
        .arg(file)
        .run();
    passed(&out);
}

/// A recorded certificate holds the next run: the same levels pass, a
/// level whose digest is not the recorded one fails the run and says how to
/// record it again, and a file that is not a certificate is an error.
#[test]
fn a_recorded_certificate_holds_the_next_run() {
    let dir = scratch("verify-record");
    let file = dir.join("certificate.json");
    record_small(&file);
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

/// `scripts/verify-merge`, the nightly workflow's last step: two shards'
/// JSON add up to the recorded certificate of the whole ("same", exit 0);
/// one digest changed in the record makes that level differ (exit 1); a
/// shard file missing is an error (exit 2).
#[test]
fn the_nightly_merge_adds_shards_up_to_the_recorded_certificate() {
    let dir = scratch("verify-merge");
    let record = dir.join("night.json");
    record_small(&record);
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
        std::process::Command::new(crate::support::python())
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
    for entry in lockstep_registry::all() {
        has(&stdout, &[&format!("{}: size = ", entry.name())]);
    }
    has(
        &stdout,
        &["footholds: size = board cells", "     2             12"],
    );
}

/// A run resumed at a level (`--from`) gives those levels the very
/// certificates of a whole run, and is verified on them alone.
#[test]
fn a_run_resumed_at_a_level_certifies_it_as_the_whole_run_does() {
    let levels = |extra: &str| {
        passed_json(&format!(
            "verify footholds matrix-game --size 6 --format json --no-append {extra}"
        ))
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
        &["new-game2: --from 3 is past its last size here, 2"],
    );
}

/// The rule branches a run reaches, end to end: `--stats`' JSON counts by
/// level add up to its totals, and the totals, `branches_reached` and
/// `not_reached` say the same; the text has the table, `not reached` and
/// the closing count; `--require-every-branch` fails a run that misses a
/// branch (exit 1), passes one that reaches every one, and refuses a shard
/// or a single case (exit 2); the report names what was not reached.
/// The `cases` field of each element of a JSON array.
fn cases_of(array: &serde_json::Value) -> Vec<u64> {
    array
        .as_array()
        .unwrap()
        .iter()
        .map(|element| element["cases"].as_u64().unwrap())
        .collect()
}

#[test]
fn verify_says_which_rule_branches_its_cases_reach() {
    let out = cli("verify footholds --size 3 --stats --format json --no-append").run();
    let doc: serde_json::Value = serde_json::from_str(&passed(&out)).unwrap();
    let p = &doc["puzzles"][0];
    let totals = cases_of(&p["rule_branches"]);
    let mut sums = vec![0; totals.len()];
    for level in p["level_branches"].as_array().unwrap() {
        for (sum, count) in sums.iter_mut().zip(level["cases"].as_array().unwrap()) {
            *sum += count.as_u64().unwrap();
        }
    }
    assert_eq!(sums, totals, "{doc}");
    let reached = totals.iter().filter(|&&c| c > 0).count();
    assert_eq!(p["branches"], totals.len(), "{doc}");
    assert_eq!(p["branches_reached"], reached, "{doc}");
    let missed: Vec<&str> = p["rule_branches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["cases"] == 0)
        .map(|b| b["branch"].as_str().unwrap())
        .collect();
    assert_eq!(p["not_reached"], serde_json::json!(missed), "{doc}");
    assert!(reached > 0 && !missed.is_empty(), "{doc}");

    let out = cli("verify footholds --size 3 --stats --no-append").run();
    let stdout = passed(&out);
    let closing = format!("reaching {reached} of the {} rule branches", totals.len());
    has(
        &stdout,
        &[
            "checked cases reaching each rule branch",
            "not reached",
            missed[0],
            &closing,
        ],
    );
    let dir = scratch("verify-branches");
    let json = written(dir.join("verify.json"), doc.to_string());
    let page = dir.join("page.html");
    passed(&cli("report").arg(&json).flag("--out", page.display()).run());
    let html = std::fs::read_to_string(&page).unwrap();
    has(&html, &[&format!("{reached} of {} reached", totals.len())]);

    let out = cli("verify footholds --size 3 --require-every-branch --no-append").run();
    let (_, stderr) = exited(&out, 1, "");
    has(&stderr, &["--require-every-branch"]);
    let out = cli("verify matrix-game --require-every-branch --no-append").run();
    has(&passed(&out), &["reaching 8 of the 8 rule branches"]);
    // A branch the levels are not asked to reach (robots' move limit) is
    // named with where it is checked, left out of the count, and not
    // required: the CI scope passes --require-every-branch without it.
    let out = cli("verify robots --require-every-branch --format json --no-append").run();
    let doc: serde_json::Value = serde_json::from_str(&passed(&out)).unwrap();
    let p = &doc["puzzles"][0];
    assert_eq!(
        p["checked_elsewhere"][0]["branch"], "stopped at the move limit",
        "{doc}"
    );
    let listed = p["rule_branches"].as_array().unwrap().len();
    assert_eq!(p["branches"], listed - 1, "{doc}");
    assert_eq!(p["branches_reached"], listed - 1, "{doc}");
    // The branch is reached by no case, and the run still passes.
    let limit = p["rule_branches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["branch"] == "stopped at the move limit")
        .unwrap();
    assert_eq!(limit["cases"], 0, "{doc}");
    assert_eq!(p["not_reached"], serde_json::json!([]), "{doc}");
    let out = cli("verify robots --size 1 --no-append").run();
    has(
        &passed(&out),
        &["not asked of the levels: stopped at the move limit (behind the 100,000-move constant"],
    );
    for flag in ["--shard 0/2", "--case"] {
        let mut cmd = cli(&format!(
            "verify footholds --size 2 --require-every-branch --no-append {flag}"
        ));
        if flag == "--case" {
            cmd = cmd.arg("size 1 case 0");
        }
        exited(&cmd.run(), 2, flag);
    }
}

/// `--record` into a directory that does not exist is an error before the
/// run, not after a night of it; `--levels --format json` is a document,
/// its counts the table's.
#[test]
fn a_record_path_is_checked_first_and_levels_have_json() {
    let out = cli("verify footholds --size 1 --no-append")
        .flag("--record", "/nonexistent-lockstep-dir/night.json")
        .run();
    let (stdout, stderr) = exited(&out, 2, "");
    has(&stderr, &["--record", "does not exist"]);
    assert!(!stderr.contains("cases/s"), "the run started: {stderr}");
    assert!(stdout.is_empty(), "{stdout}");

    let text = passed(&cli("verify footholds --levels --size 4").run());
    let out = cli("verify footholds --levels --size 4 --format json").run();
    let doc: serde_json::Value = serde_json::from_str(&passed(&out)).unwrap();
    assert_eq!(doc["lockstep"], "verify-levels", "{doc}");
    let levels = doc["puzzles"][0]["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 4, "{doc}");
    for level in levels {
        let (size, cases) = (level["size"].as_u64(), level["cases"].as_u64());
        let row = format!("{:>6} {:>14}", size.unwrap(), cases.unwrap());
        has(&text, &[&row]);
    }
}

/// Checkers' explored games end to end: a run resumed at depth 0 (size 4)
/// counts each depth's positions as the rule page does, two shards add up
/// to the whole, and each depth is the same as the built-in certificate
/// (which whole runs recorded).
#[test]
fn checkers_explored_depths_resume_shard_and_match_the_record() {
    let levels = |extra: &str| {
        passed_json(&format!(
            "verify checkers --size 8 --format json --no-append --no-symmetry {extra}"
        ))
    };
    let resumed = levels("--from 4");
    let p = &resumed["puzzles"][0];
    assert_eq!(p["verified"], true, "{p}");
    let cases = cases_of(&p["levels"]);
    // Depths 0 to 4: the 784 starts and their images, then each depth's
    // new positions (docs/guide/src/rules/checkers.md).
    assert_eq!(cases, [1568, 1736, 3224, 4056, 5928], "{p}");
    let shards: u64 = ["0/2", "1/2"]
        .iter()
        .map(|s| {
            let d = levels(&format!("--from 4 --shard {s}"));
            d["puzzles"][0]["levels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l["classes"].as_u64().unwrap())
                .sum::<u64>()
        })
        .sum();
    assert_eq!(shards, cases.iter().sum::<u64>());
    // With symmetry, against the built-in certificate: every level "same".
    let out = cli("verify checkers --from 4 --size 8 --no-append").run();
    let text = passed(&out);
    assert_eq!(text.matches(" same ").count(), 5, "{text}");
    has(
        &text,
        &["verified: every case from size 4 up to size 8 agrees: 8256 cases run by both sides, 16512 with their symmetric images run by the core, reaching"],
    );
}

/// The JSON document a passing command prints.
fn passed_json(args: &str) -> serde_json::Value {
    serde_json::from_str(&passed(&cli(args).run())).unwrap()
}

/// The guide's verify table is what the binary prints: its first two rows
/// (all but `seconds`, which is the machine's) against `lockstep verify
/// footholds --size 2`, so a digest that changes cannot leave the guide
/// behind.
#[test]
fn the_guides_verify_table_is_what_the_binary_prints() {
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/guide/src/tasks/verify.md"
    ))
    .unwrap();
    let out = cli("verify footholds --size 2 --no-append").run();
    let stdout = passed(&out);
    // A row's fields but the last (seconds), from the row of `size`.
    let row = |text: &str, size: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(size) && l.contains("same"))
            .unwrap_or_else(|| panic!("no row of size {size} in: {text}"));
        let fields: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        fields[..fields.len() - 1].to_vec()
    };
    for size in ["1", "2"] {
        assert_eq!(row(&page, size), row(&stdout, size), "size {size}");
    }
}

/// `verify --help` says what `--limits` means for verify's levels, not in
/// fuzz's words (a generator, which verify does not use).
#[test]
fn verify_help_describes_limits_in_its_own_words() {
    let help = passed(&cli("verify --help").run());
    let limits = help
        .split("--limits <LIMITS>")
        .nth(1)
        .and_then(|rest| rest.split("\n      --").next())
        .unwrap_or_else(|| panic!("no --limits in: {help}"));
    has(
        limits,
        &["every case the levels hold", "original statements' limits"],
    );
    assert!(
        !limits.contains("generator") && !limits.contains("(fuzz)"),
        "{limits}"
    );
}

/// A size past a puzzle's last level is refused before anything runs or is
/// allocated, naming that level, whether verify runs the levels, lists
/// them or stress enumerates them; up to `u32::MAX`, which once grew past
/// the machine's memory.
#[test]
fn a_size_past_the_last_level_is_refused_naming_it() {
    for size in ["26", "1000000", "4294967295"] {
        for command in [
            "verify footholds --no-append",
            "verify footholds --levels",
            "stress footholds --exhaustive --cmd true",
        ] {
            let said = match command.starts_with("stress") {
                true => "--exhaustive --size",
                false => "--size",
            };
            let out = cli(command).flag("--size", size).run();
            let (_, err) = exited(&out, 2, command);
            has(
                &err,
                &[&format!(
                    "footholds: {said} {size} is past its last level, 25 (every level past it is empty"
                )],
            );
        }
    }
    // The last level itself is a size a run takes (listed, not run here).
    let out = cli("verify footholds --levels").flag("--size", "25").run();
    has(&passed(&out), &["    25 "]);
}
