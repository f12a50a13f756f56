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
    has(
        &stderr,
        &[
            "indexes: about",
            "stopping (signal 15)",
            // The size to resume at, named.
            "resume with --from (lockstep verify duel --from ",
        ],
    );
    has(&stdout, &["cut short", "not verified up to size"]);
    assert!(!stdout.contains("DIFFERS"), "{stdout}");
}

/// A program's run over every case, stopped: its programs are killed, and
/// the last words say where it stopped and the exact command that resumes
/// there; the stopped run and the resumed one check every case once
/// between them (their counts add up to the levels' own count).
#[test]
fn a_stopped_exhaustive_stress_resumes_where_it_stopped() {
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
            "--size",
            "6",
            "--jobs",
            "2",
            "--cmd",
            &program,
            "--save",
            save.to_str().unwrap(),
        ],
        "indexes: about",
        Duration::from_millis(1500),
    );
    assert_eq!(code, Some(143), "{stdout}{stderr}");
    has(
        &stderr,
        &[
            "every case up to size 6 (",
            "stopping (signal 15): every program it started is killed",
            "stopped before size ",
            "resume there (the two runs check every case once) with:",
        ],
    );
    let total = number_after(&stderr, "every case up to size 6 (");
    let stopped = crate::support::line_starting(&stderr, "stopped before size ");
    let before = number_after(stopped, ": the ");
    let command = stderr
        .lines()
        .skip_while(|l| !l.contains("resume there"))
        .nth(1)
        .expect("the resume command")
        .trim()
        .to_string();
    assert!(command.contains("--from 'size "), "{command}");
    // The line is a shell's: run as a user would paste it.
    let resumed = Command::new("sh").args(["-c", &command]).output().unwrap();
    let (out, err) = (text(&resumed.stdout), text(&resumed.stderr));
    assert_eq!(resumed.status.code(), Some(0), "{out}{err}");
    has(&out, &["passed: every case from size "]);
    let after = number_after(&out, "footholds: ");
    assert_eq!(before + after, total, "{stderr}\n{out}");
}

/// The whole number right after `marker`'s first occurrence in `text`.
fn number_after(text: &str, marker: &str) -> u64 {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in {text}"))
        + marker.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after {marker:?} in {text}"))
}

/// A program that runs `then` after `runs` runs of `first` (each counted
/// in a file beside it; lockstep's start-up check of a program is its
/// first run, the failing case its second): the shrink of a failure it
/// shows is under way, `runs - 2` candidates in, once its `runs + 1`-th
/// run has started, and `then` (a long sleep) holds it there until the
/// test's signal comes.
/// Returns the command and the counter's path.
fn hangs_after(
    dir: &std::path::Path,
    runs: u32,
    first: &str,
    then: &str,
) -> (String, std::path::PathBuf) {
    let counter = dir.join("runs");
    let script = dir.join("hangs-after.sh");
    std::fs::write(
        &script,
        format!(
            "n=$(cat '{c}' 2>/dev/null || echo 0)\nn=$((n + 1))\necho $n > '{c}'\nif [ $n -gt {runs} ]; then {then}; fi\n{first}\n",
            c = counter.display()
        ),
    )
    .unwrap();
    (format!("sh {}", script.display()), counter)
}

/// The slow program that answers `0` to everything: a wrong solution to
/// every puzzle.
fn slow_zero(dir: &std::path::Path, pause: &str) -> String {
    let script = dir.join("slow-zero.sh");
    std::fs::write(&script, format!("sleep {pause}\ncat >/dev/null\necho 0\n")).unwrap();
    format!("sh {}", script.display())
}

/// `lockstep ARGS`, sent `signal` once the program's run counted in
/// `counter` passes `runs` (the run that hangs: [`hangs_after`]), its
/// failing input saved at `save` by then (a run writes it the moment it
/// finds a failure, then again at each step of the shrink): its exit code,
/// stdout and stderr.
fn stopped_mid_shrink(
    args: &[&str],
    (counter, runs): (&std::path::Path, u32),
    save: &std::path::Path,
    signal: &str,
) -> (Option<i32>, String, String) {
    let child = crate::support::bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let child = Spawned::new(child);
    let count = || {
        std::fs::read_to_string(counter)
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok())
            .unwrap_or(0)
    };
    let until = std::time::Instant::now() + Duration::from_secs(120);
    while count() <= runs && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(count() > runs, "the program never hung: {args:?}");
    assert!(save.exists(), "no failing input was saved: {args:?}");
    Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Whether `program` fails the test `input` whose right answer is
/// `answer`, as `lockstep test` judges it (lines compared).
fn fails_on(program: &str, input: &str, answer: &str, dir: &std::path::Path) -> bool {
    let tests = dir.join("judged");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(tests.join("saved.in"), input).unwrap();
    std::fs::write(tests.join("saved.ans"), answer).unwrap();
    let out = crate::support::bin()
        .args([
            "test",
            tests.to_str().unwrap(),
            "--compare",
            "lines",
            "--cmd",
            program,
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    match out.status.code() {
        Some(1) => true,
        Some(0) => false,
        other => panic!("lockstep test exited {other:?}: {}", text(&out.stderr)),
    }
}

/// SIGINT and SIGTERM during the shrink of every puzzle's stress, at
/// several moments (after 0, 2 and 4 candidates): the run reports the
/// smallest failing case so far, marked as cut short, saves it, and exits
/// with the signal's code; the saved case still fails the program (judged
/// against `lockstep solve`).
#[test]
fn a_signal_during_a_puzzle_stress_shrink_keeps_the_failure() {
    // Seeds whose first failing case shrinks in several steps.
    let puzzles = [
        ("robots", "2"),
        ("new-game2", "1"),
        ("checkers", "3"),
        ("checkers-perft", "1"),
        ("footholds", "2"),
        ("duel-search", "2"),
        ("matrix-game", "1"),
    ];
    std::thread::scope(|scope| {
        for (i, (puzzle, seed)) in puzzles.into_iter().enumerate() {
            scope.spawn(move || {
                let (signal, code) = [("INT", 130), ("TERM", 143)][i % 2];
                // The start-up check and the first case, then 0, 2 or 4
                // candidates of the shrink.
                let runs = [2, 4, 6][i % 3];
                let dir = crate::support::scratch(&format!("signals-shrink-{puzzle}"));
                let (program, counter) =
                    hangs_after(&dir, runs, "cat >/dev/null; echo 0", "sleep 60");
                let save = dir.join("failing.txt");
                let (status, stdout, stderr) = stopped_mid_shrink(
                    &[
                        "stress",
                        puzzle,
                        "--cmd",
                        &program,
                        "--seed",
                        seed,
                        "--jobs",
                        "1",
                        "--save",
                        save.to_str().unwrap(),
                    ],
                    (&counter, runs),
                    &save,
                    signal,
                );
                let context = format!("{puzzle} ({signal}):\n{stdout}{stderr}");
                assert_eq!(status, Some(code), "{context}");
                has(
                    &stderr,
                    &[
                        "cut off by a signal (it may shrink further)",
                        "saved the smallest failing input so far (a signal cut its shrink short)",
                    ],
                );
                // The failure is counted in the table.
                assert!(stdout.contains(": 0 OK, 1 WA"), "{context}");
                let input = std::fs::read_to_string(&save).unwrap();
                let solved = crate::support::lockstep(&["solve", puzzle], &input);
                assert_eq!(solved.status.code(), Some(0), "{context}");
                let zero = slow_zero(&dir, "0");
                assert!(
                    fails_on(&zero, &input, &text(&solved.stdout), &dir),
                    "{context}\n{input}"
                );
            });
        }
    });
}

/// The same for `stress any` (a brute force's answers) and for an
/// interactive problem (an interactor's verdict): the saved input, cut
/// short by the signal, still fails the solution.
#[test]
fn a_signal_during_a_stress_any_shrink_keeps_the_failure() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let dir = crate::support::scratch("signals-shrink-any");
    let wrong = format!("python3 {fixtures}/any/max_subarray.py wrong");
    let (program, counter) = hangs_after(&dir, 3, &format!("exec {wrong}"), "sleep 60");
    let save = dir.join("failing.txt");
    let gen = format!("python3 {fixtures}/any/max_subarray.py gen");
    let brute = format!("python3 {fixtures}/any/max_subarray.py brute");
    let (status, stdout, stderr) = stopped_mid_shrink(
        &[
            "stress",
            "any",
            "--gen",
            &gen,
            "--brute",
            &brute,
            "--cmd",
            &program,
            "--seed",
            "3",
            "--jobs",
            "1",
            "--save",
            save.to_str().unwrap(),
        ],
        (&counter, 3),
        &save,
        "INT",
    );
    assert_eq!(status, Some(130), "{stdout}{stderr}");
    has(
        &stderr,
        &[
            "cut off by a signal (it may shrink further)",
            "saved the smallest failing input so far",
        ],
    );
    let input = std::fs::read_to_string(&save).unwrap();
    let answer = Command::new("sh")
        .args(["-c", &format!("{brute} < '{}'", save.display())])
        .output()
        .unwrap();
    assert!(
        fails_on(&wrong, &input, &text(&answer.stdout), &dir),
        "{input}"
    );

    // Interactive: `sol wrong` searches [1, n - 1], so a test `n x` fails
    // it exactly when x is n.
    let dir = crate::support::scratch("signals-shrink-interactive");
    let guess = format!("python3 {fixtures}/interactive/guess.py");
    let (program, counter) = hangs_after(&dir, 2, &format!("exec {guess} sol wrong"), "sleep 60");
    let save = dir.join("failing-test.txt");
    let (status, stdout, stderr) = stopped_mid_shrink(
        &[
            "stress",
            "any",
            "--interactor",
            &format!("{guess} interactor"),
            "--gen",
            &format!("{guess} gen"),
            "--cmd",
            &program,
            "--jobs",
            "1",
            "--seed",
            "1",
            "--cases",
            "100000",
            "--save",
            save.to_str().unwrap(),
        ],
        (&counter, 2),
        &save,
        "TERM",
    );
    assert_eq!(status, Some(143), "{stdout}{stderr}");
    has(&stderr, &["cut off by a signal (it may shrink further)"]);
    let test = std::fs::read_to_string(&save).unwrap();
    let words: Vec<&str> = test.split_whitespace().collect();
    assert!(
        words.len() >= 2 && words[0] == words[1],
        "{test:?} passes `sol wrong`"
    );
}

/// A signal in a run's first seconds, before any failure: the report of
/// what ran, nothing saved, the signal's exit code. And `lockstep test`
/// stopped part-way: the tests done are reported, none killed by the stop
/// is called a failure, and it says how many were not run.
#[test]
fn a_signal_early_in_a_run_or_in_a_test_set_reports_what_ran() {
    let dir = crate::support::scratch("signals-early");
    let save = dir.join("failing.txt");
    let program = format!(
        "python3 {}/tests/fixtures/new_game2.py ok",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, stdout, stderr) = stopped_after(
        &[
            "stress",
            "new-game2",
            "--cmd",
            &program,
            "--jobs",
            "1",
            "--seconds",
            "60",
            "--save",
            save.to_str().unwrap(),
        ],
        "findings:",
        Duration::from_millis(700),
    );
    assert_eq!(code, Some(143), "{stdout}{stderr}");
    has(&stdout, &[" 0 WA, 0 RE"]);
    assert!(!save.exists(), "a passing run saved {}", save.display());

    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    for i in 0..6 {
        std::fs::write(tests.join(format!("t{i}.in")), "1\n").unwrap();
        std::fs::write(tests.join(format!("t{i}.ans")), "0\n").unwrap();
    }
    let slow = slow_zero(&dir, "0.6");
    let (code, stdout, stderr) = stopped_after(
        &[
            "test",
            tests.to_str().unwrap(),
            "--jobs",
            "1",
            "--cmd",
            &slow,
        ],
        "lockstep test",
        Duration::from_millis(1500),
    );
    assert_eq!(code, Some(143), "{stdout}{stderr}");
    has(
        &stderr,
        &[
            "stopped by signal 15 after ",
            " of 6 tests; the rest were not run",
        ],
    );
    assert!(stdout.contains("t0"), "{stdout}");
    assert!(!stdout.contains("t5"), "{stdout}");
    for verdict in ["RE", "WA", "TLE", "ILE"] {
        assert!(!stdout.contains(&format!(" {verdict} ")), "{stdout}");
    }
}
