//! A signal in each phase of a long run: counting the levels, checking
//! them, running a program over them. Each stops the run and says how far
//! it got; none reports a part as a whole. (How quickly is not asserted: a
//! test may not hold the machine's load to a time. Each phase here would
//! take seconds to minutes more, and the output tells a phase that stopped
//! from one that ran to its end.)

use crate::support::{has, text, Spawned, BIN};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Duration;

/// `lockstep ARGS`, sent SIGTERM `after` the line `when` appears on its
/// stderr (at once when `when` is empty): its exit code, stdout and stderr.
fn stopped_after(args: &[&str], when: &str, after: Duration) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let child = Spawned::new(child);
    let mut seen = String::new();
    while !seen.contains(when) {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen.push_str(&line);
    }
    std::thread::sleep(after);
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    stderr.read_to_string(&mut seen).unwrap();
    let out = child.wait_with_output();
    (out.status.code(), text(&out.stdout), seen)
}

/// Checkers' explored levels are counted on a breadth-first search of
/// seconds; a signal in it stops the count, and no count of a level not
/// reached (which would read 0) is listed.
#[test]
fn a_signal_stops_the_count_of_levels_and_lists_nothing_counted_in_part() {
    let (code, stdout, stderr) = stopped_after(
        &["verify", "checkers", "--levels", "--scope", "night"],
        "",
        Duration::from_millis(300),
    );
    assert_eq!(code, Some(143), "{stdout}{stderr}");
    has(
        &stderr,
        &["stopped by a signal while counting the levels of checkers"],
    );
    assert!(!stdout.contains("checkers: size"), "{stdout}");
}

/// A run stopped inside a level says so: the level is `cut short`, never
/// held to the recorded certificate (a part of a level has another digest
/// than the whole, which would read as a change of the rules). The run
/// said before it started how long it would take.
#[test]
fn a_level_a_signal_cut_short_is_not_held_to_the_record() {
    let (code, stdout, stderr) = stopped_after(
        &["verify", "duel", "--scope", "night", "--jobs", "2"],
        "indexes: about",
        Duration::from_millis(1000),
    );
    assert_eq!(code, Some(143), "{stdout}{stderr}");
    has(&stderr, &["indexes: about", "stopping (signal 15)"]);
    has(&stdout, &["cut short", "not verified up to size"]);
    assert!(!stdout.contains("DIFFERS"), "{stdout}");
}

/// A program's run over every case, stopped: its programs are killed, and
/// the last word is how far it got, in cases of the levels' indexes.
#[test]
fn a_stopped_exhaustive_stress_says_how_far_it_got() {
    let program = format!(
        "python3 {}/tests/fixtures/footholds.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let dir = crate::support::scratch("signals-exhaustive");
    let save = dir.join("failing.txt");
    let (code, stdout, stderr) = stopped_after(
        &[
            "stress",
            "footholds",
            "--exhaustive",
            "--cmd",
            &program,
            "--save",
            save.to_str().unwrap(),
        ],
        "indexes: about",
        Duration::from_millis(500),
    );
    assert_eq!(code, Some(143), "{stdout}{stderr}");
    has(
        &stderr,
        &[
            "indexes: about",
            "stopped by signal 15; every program it started is killed",
            "how far it got: footholds: ",
            " indexes (",
        ],
    );
}
