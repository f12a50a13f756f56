//! Every option of every command at its largest value: the command line's
//! own definition (`lockstep::cli::definition`) is walked, so that an
//! option added later is fed too, and a command with options but no
//! baseline here fails the test instead of going unchecked.
//!
//! Each option gets `u64::MAX` and `1e308` on top of a baseline command
//! line that runs. What must hold: a clean error (exit 2, one `error:`,
//! no panic), or a run that ends by itself (0 or 1), or one that is still
//! going after a few seconds and then stops on SIGTERM with 128 + 15.
//! Under a 8 GiB address-space limit, so that an allocation sized by a
//! flag fails here (an abort) instead of taking the machine down.

use crate::support::{bin, scratch, text, BIN};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The values every option is given: the largest integer any flag reads,
/// and a float near the largest.
const LARGEST: [&str; 2] = ["18446744073709551615", "1e308"];

/// A command line of each command with options that runs as it is
/// (programs, files, a test directory), from `dir`.
fn baselines(dir: &Path) -> Vec<(&'static str, Vec<String>)> {
    let fixture = |name: &str| {
        format!(
            "python3 {}/tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    let correct = format!("{BIN} solve robots");
    let tests = dir.join("tests");
    let json = dir.join("fuzz.json");
    let d = |p: &Path| p.display().to_string();
    let words = |line: &str| {
        line.split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let with = |line: &str, more: &[String]| {
        let mut w = words(line);
        w.extend(more.iter().cloned());
        w
    };
    vec![
        ("fuzz", words("fuzz robots --no-append")),
        // An empty input (stdin is /dev/null here): --fuel's value is read
        // and the run ends with the input's error.
        ("solve", words("solve robots --reference")),
        ("verify", words("verify robots --no-append")),
        (
            "replay",
            with("replay robots --corpus", &[d(&dir.join("corpus"))]),
        ),
        ("shrink", with("shrink robots", &[d(&tests.join("0-0.in"))])),
        ("triage", with("triage", &[d(&dir.join("artifacts"))])),
        ("import", with("import robots", &[d(&dir.join("rows.csv"))])),
        ("report", with("report", &[d(&json)])),
        (
            "corpus distill",
            with("corpus distill robots --corpus", &[d(&dir.join("corpus"))]),
        ),
        (
            "corpus export",
            with(
                "corpus export",
                &[
                    format!("{}/corpus/robots.csv", env!("CARGO_MANIFEST_DIR")),
                    "--out".into(),
                    d(&dir.join("exported")),
                ],
            ),
        ),
        (
            "stress any",
            with(
                "stress any",
                &[
                    "--gen".into(),
                    fixture("any/argmax.py gen"),
                    "--brute".into(),
                    fixture("any/argmax.py brute"),
                    "--cmd".into(),
                    fixture("any/argmax.py last"),
                    "--save".into(),
                    d(&dir.join("failing.txt")),
                ],
            ),
        ),
        (
            "stress",
            with(
                "stress robots --cmd",
                &[
                    correct.clone(),
                    "--save".into(),
                    d(&dir.join("failing.txt")),
                ],
            ),
        ),
        ("bench", words("bench robots --no-extras")),
        ("perft", words("perft --depth 3")),
        ("test", with("test --cmd", &[correct, d(&tests)])),
    ]
    .into_iter()
    .chain(duel_baselines())
    .collect()
}

/// The duel's commands of [`baselines`], each playing lockstep's own bot.
fn duel_baselines() -> Vec<(&'static str, Vec<String>)> {
    let bot = format!("{BIN} duel bot --strategy greedy");
    let line = |words: &str, programs: &[&str]| {
        let mut line: Vec<String> = words.split_whitespace().map(str::to_string).collect();
        line.extend(programs.iter().map(|p| p.replace("BOT", &bot)));
        line
    };
    vec![
        (
            "duel referee",
            line("duel referee --p1", &["BOT", "--p2", "BOT"]),
        ),
        (
            "duel tournament",
            line("duel tournament --p1", &["BOT", "--p2", "BOT"]),
        ),
        ("duel ladder", line("duel ladder --cmd", &["BOT"])),
        ("duel stress", line("duel stress --cmd", &["BOT"])),
        ("duel bot", line("duel bot", &[])),
    ]
}

/// The files the baselines read: a test (an input and its answer, as
/// `stress --dump` writes them), an empty corpus, a fuzz run's JSON.
fn fixtures(dir: &Path) {
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    std::fs::create_dir_all(dir.join("artifacts")).unwrap();
    let dumped = bin()
        .args(["stress", "robots", "--cases", "1", "--seed", "1", "--cmd"])
        .arg(format!("{BIN} solve robots"))
        .arg("--dump")
        .arg(&tests)
        .output()
        .unwrap();
    assert!(tests.join("0-0.in").exists(), "{}", text(&dumped.stderr));
    let fuzz = bin()
        .args([
            "fuzz",
            "robots",
            "--cases",
            "10",
            "--no-append",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    std::fs::write(dir.join("fuzz.json"), &fuzz.stdout).unwrap();
    std::fs::write(dir.join("rows.csv"), "").unwrap();
}

/// Every command path (`duel tournament`) and its options that take a
/// value, from the definition.
fn options() -> Vec<(String, Vec<String>)> {
    fn walk(command: &clap::Command, path: &str, out: &mut Vec<(String, Vec<String>)>) {
        let longs: Vec<String> = command
            .get_arguments()
            .filter(|a| !a.is_positional() && a.get_action().takes_values())
            .filter_map(|a| a.get_long().map(str::to_string))
            .collect();
        if !longs.is_empty() {
            out.push((path.trim().to_string(), longs));
        }
        for sub in command.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }
    let mut out = Vec::new();
    walk(&lockstep::cli::definition(), "", &mut out);
    out
}

/// `args` with `--flag value`, replacing the flag's value if the line has it.
fn with_flag(args: &[String], flag: &str, value: &str) -> Vec<String> {
    let long = format!("--{flag}");
    let mut out = args.to_vec();
    match out.iter().position(|a| *a == long) {
        Some(at) if at + 1 < out.len() => out[at + 1] = value.to_string(),
        _ => out.extend([long, value.to_string()]),
    }
    out
}

/// How one run went, or what is wrong with it.
fn run_one(args: &[String], dir: &Path) -> Result<(), String> {
    let line = args.join(" ");
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 8388608; exec \"$0\" \"$@\"")
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut { stderr }, &mut s);
        s
    });
    let started = Instant::now();
    let mut signalled = false;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        let waited = started.elapsed();
        if !signalled && waited > Duration::from_secs(4) {
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            signalled = true;
        }
        if waited > Duration::from_secs(40) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{line}: still running 36 s after SIGTERM"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = reader.join().unwrap();
    let code = status.code();
    let fine = match code {
        Some(0 | 1) => true,
        Some(2) => stderr.lines().filter(|l| l.starts_with("error:")).count() == 1,
        Some(143) => signalled,
        // A command with nothing to report or save (bench, perft) is
        // stopped by the signal itself.
        None => signalled && status.signal() == Some(15),
        _ => false,
    };
    if !fine || stderr.contains("panicked") || stderr.contains("memory allocation") {
        return Err(format!(
            "{line}: exit {code:?}\n{}",
            lockstep_text::clip(&stderr, 1500)
        ));
    }
    Ok(())
}

mod hunt {
    use super::*;

    #[test]
    #[ignore = "tier 2, the hunts: cargo test --workspace -- --ignored ::hunt::"]
    fn every_option_at_its_largest_value_errs_cleanly_or_runs_within_bounds() {
        let dir = scratch("flags-largest");
        fixtures(&dir);
        let baselines = baselines(&dir);
        let mut runs = Vec::new();
        let mut problems = Vec::new();
        for (path, longs) in options() {
            let Some((_, base)) = baselines.iter().find(|(p, _)| *p == path) else {
                problems.push(format!("{path}: no baseline command line here ({longs:?})"));
                continue;
            };
            for long in &longs {
                for value in LARGEST {
                    runs.push(with_flag(base, long, value));
                }
            }
        }
        assert!(runs.len() > 100, "the walk found {} runs", runs.len());
        let next = std::sync::atomic::AtomicUsize::new(0);
        let found = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(args) = runs.get(i) else { break };
                    if let Err(e) = run_one(args, &dir) {
                        found.lock().unwrap().push(e);
                    }
                });
            }
        });
        problems.extend(found.into_inner().unwrap());
        assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    }
}
