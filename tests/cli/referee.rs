//! The duel referee, its bots and tournaments through the real binary:
//! misbehaving bots lose by the rule they break, built-in bots play whole
//! games with a log, a bot that cannot start is the user's error, and a
//! tournament tallies each failure by its kind.

use crate::support::{cli, fails_with, has, repo, text};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> String {
    format!("sh {}", repo(&format!("tests/fixtures/duel/{name}")))
}

fn bot(strategy: &str, seed: u64) -> String {
    format!(
        "{} duel bot --strategy {strategy} --seed {seed}",
        crate::support::BIN
    )
}

/// Runs the referee; returns stdout, and checks it finished in `limit`.
fn referee(p1: &str, p2: &str, extra: &[&str], limit: Duration) -> String {
    let start = Instant::now();
    let out = Command::new(crate::support::BIN)
        .args(["duel", "referee", "--p1", p1, "--p2", p2])
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(start.elapsed() < limit, "took {:?}", start.elapsed());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn misbehaving_bots_lose() {
    let good = bot("random", 1);
    let cases = [
        ("crash.sh", "crashed"),
        ("stall.sh", "ran out of time"),
        ("garbage.sh", "malformed answer"),
        ("illegal.sh", "played illegally"),
        ("long.sh", "longer than 128 bytes"),
    ];
    for (name, why) in cases {
        let out = referee(
            &fixture(name),
            &good,
            &["--init", "2 4 4 3 4 5"],
            Duration::from_secs(5),
        );
        assert!(out.starts_with("result: p2 wins\n"), "{name}: {out}");
        assert!(out.contains(why), "{name}: {out}");
        let out = referee(
            &good,
            &fixture(name),
            &["--init", "2 4 4 3 4 5"],
            Duration::from_secs(5),
        );
        assert!(out.starts_with("result: p1 wins\n"), "{name}: {out}");
    }
    let out = referee(
        &fixture("stall.sh"),
        &fixture("garbage.sh"),
        &["--seed", "3"],
        Duration::from_secs(5),
    );
    assert!(out.starts_with("result: draw\n"), "{out}");
}

#[test]
fn built_in_bots_play_whole_games_with_a_log() {
    let dir = crate::support::scratch("duel-games");
    for seed in 0..4u64 {
        let log = dir.join(format!("game-{seed}.log"));
        let out = referee(
            &bot("random", seed),
            &bot("greedy", seed + 100),
            &[
                "--seed",
                &seed.to_string(),
                "--log",
                log.to_str().unwrap(),
                "--render",
            ],
            Duration::from_secs(10),
        );
        has(&out, &["result: "]);
        // A rule ended the game, not a referee's loss (illegal, time, crash,
        // malformed, READY).
        let reason = out.lines().find(|l| l.starts_with("reason: ")).unwrap();
        let by_rule = [
            "hp reached 0",
            "pushed out of the yard",
            "blessing reached 10",
            "turn 60 ended",
        ];
        assert!(by_rule.iter().any(|r| reason.contains(r)), "{out}");
        let log = std::fs::read_to_string(&log).unwrap();
        assert!(log.starts_with("INIT "), "{log}");
        assert!(log.contains("turn 1 | ") && log.contains("phase 6 push and damage"));
    }
}

/// A bot command that cannot be started is the user's error (exit 2, naming the
/// command), not a game lost, as with `lockstep stress`.
#[test]
fn a_bot_that_cannot_start_is_one_clear_error() {
    let good = bot("random", 1);
    let out = cli("duel referee --p1 no-such-bot-program")
        .flag("--p2", &good)
        .run();
    fails_with(&out, "\"no-such-bot-program\": No such file");
}

/// The referee's failures reach a tournament's tally under their kind, READY
/// told apart from other protocol failures.
#[test]
fn a_tournament_tallies_each_failure_by_its_kind() {
    let good = bot("random", 1);
    for (name, kind) in [
        ("crash.sh", "crash"),
        ("garbage.sh", "malformed"),
        ("long.sh", "malformed"),
        ("illegal.sh", "illegal"),
        ("no-ok.sh", "ready"),
    ] {
        let out = cli("duel tournament --games 2 --seed 1")
            .flag("--p1", fixture(name))
            .flag("--p2", &good)
            .run();
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{name}: {stdout}");
        assert!(
            stdout.contains(&format!("p1 losses by: {kind} 2\n")),
            "{name}: {stdout}"
        );
    }
}
