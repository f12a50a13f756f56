//! lockstep as a problem setter runs it, end to end through the binary, on
//! the sources in tests/fixtures/setter: C++, Java and Python given by path
//! to `test` and `stress` (compiled once into a scratch cache), compile
//! errors as CE, allocations past `--memory-limit` as MLE, the comparisons
//! (reals within and beyond an error, yes in any case), `lockstep test` on
//! its own dump sets and the statements' samples, and a duel bot source.
//!
//! Nothing here reads or writes the user's cache or languages file: every
//! run gets `LOCKSTEP_CACHE_DIR` and `LOCKSTEP_LANGUAGES` of the tests'. The
//! cache is shared by the tests and kept between runs under cargo's
//! `CARGO_TARGET_TMPDIR` (a Java compile takes seconds; a build keyed by the
//! source's bytes is as good the next time), except where the test is about
//! the cache itself and starts from an empty one. Every allocating run has a
//! memory limit.

use crate::support::{cli, exited, found, has, made, passed, repo, scratch, text, written, BIN};
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture(name: &str) -> String {
    repo(&format!("tests/fixtures/setter/{name}"))
}

/// `lockstep ARGS` with the languages file under `dir` and the given cache.
fn run_cached(cache: &Path, dir: &Path, args: &[&str]) -> Output {
    crate::support::bin()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("LOCKSTEP_CACHE_DIR", cache)
        .env("LOCKSTEP_LANGUAGES", dir.join("languages.conf"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the lockstep binary starts")
}

/// Writes tests `NAME.in` / `NAME.ans` for the sum (n, then n numbers).
fn sum_tests(dir: &Path, tests: &[(&str, &[i64])]) -> PathBuf {
    let tests_dir = made(dir.join("tests"));
    for (name, numbers) in tests {
        let line: Vec<String> = numbers.iter().map(i64::to_string).collect();
        let input = format!("{}\n{}\n", numbers.len(), line.join(" "));
        std::fs::write(tests_dir.join(format!("{name}.in")), input).unwrap();
        let sum: i64 = numbers.iter().sum();
        std::fs::write(tests_dir.join(format!("{name}.ans")), format!("{sum}\n")).unwrap();
    }
    tests_dir
}

/// How a memory limit is enforced on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Guard {
    Cgroup,
    AddressSpace,
}

/// The enforcement a banner on `stderr` names (`memory limit 256 MiB by
/// RLIMIT_AS (...)` or `by cgroup v2 (...)`): tests assert what that one
/// does, never what one of them would.
fn memory_guard(stderr: &str) -> Guard {
    if stderr.contains(" by RLIMIT_AS (") {
        Guard::AddressSpace
    } else if stderr.contains(" by cgroup v2 (") {
        Guard::Cgroup
    } else {
        panic!("no memory limit named in the banner:\n{stderr}")
    }
}

/// The verdict column of `lockstep test`'s line for `name`.
fn verdict_of<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            (words.next() == Some(name)).then(|| words.next()).flatten()
        })
        .unwrap_or_else(|| panic!("no line for test {name} in:\n{stdout}"))
}

#[test]
fn a_source_is_compiled_once_and_its_language_sets_the_time_limit() {
    let dir = scratch("setter-cache");
    let tests = sum_tests(&dir, &[("1", &[1, 2, 3]), ("2", &[-5]), ("10", &[0, 0])]);
    let tests = tests.to_str().unwrap();
    let source = fixture("sum.cpp");
    let first = run_cached(&dir.join("cache"), &dir, &["test", tests, "--cmd", &source]);
    let (stdout, stderr) = exited(&first, 0, "");
    has(&stderr, &["cpp, compiled in"]);
    // In natural order: 2 before 10.
    let names: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names[..3], ["1", "2", "10"], "{stdout}");
    has(
        &stdout,
        &[
            "3 tests: 3 OK, 0 WA, 0 RE, 0 TLE, 0 ILE, 0 MLE, 0 OLE",
            "peak memory: median",
        ],
    );
    let second = run_cached(&dir.join("cache"), &dir, &["test", tests, "--cmd", &source]);
    let stderr = text(&second.stderr);
    assert_eq!(second.status.code(), Some(0), "{stderr}");
    has(&stderr, &["cpp, built before"]);
    let builds: Vec<_> = std::fs::read_dir(dir.join("cache/build"))
        .unwrap()
        .collect();
    assert_eq!(builds.len(), 1, "one build, nothing half made");

    // The table is shown, read back from the file, and overrides apply:
    // C++ at x1.5 here.
    let table = cli("languages").run_in(&dir);
    let printed = text(&table.stdout);
    has(&printed, &["[java]", "time = 3"]);
    let (before, cpp) = printed.split_once("[cpp]").unwrap();
    let edited = format!(
        "{before}[cpp]{}",
        cpp.replacen("time = 1\n", "time = 1.5\n", 1)
    );
    std::fs::write(dir.join("languages.conf"), edited).unwrap();
    let scaled = run_cached(
        &dir.join("cache"),
        &dir,
        &["test", tests, "--cmd", &source, "--timeout-ms", "1000"],
    );
    let stderr = text(&scaled.stderr);
    has(&stderr, &["time limit 1000 ms (cpp x1.5: 1500 ms)"]);
    std::fs::write(dir.join("languages.conf"), "[cpp]\ncolour = red\n").unwrap();
    let broken = run_cached(&dir.join("cache"), &dir, &["test", tests, "--cmd", &source]);
    crate::support::fails_with(&broken, "line 2: unknown key \"colour\"");
}

/// The same source under two names is two builds: the run line names the
/// program after the file (`{exe}` is `DIR/brute` for brute.cpp), so a build
/// found by the bytes alone would run a program its directory lacks.
#[test]
fn a_copy_under_another_name_is_built_under_that_name() {
    let dir = scratch("setter-copies");
    let tests = sum_tests(&dir, &[("1", &[1, 2]), ("2", &[7])]);
    let tests = tests.to_str().unwrap();
    let cache = dir.join("cache");
    for name in ["sol.cpp", "brute.cpp"] {
        let source = dir.join(name);
        std::fs::copy(fixture("sum.cpp"), &source).unwrap();
        let out = run_cached(
            &cache,
            &dir,
            &["test", tests, "--cmd", source.to_str().unwrap()],
        );
        let (stdout, stderr) = exited(&out, 0, format_args!("{name}: "));
        assert!(stdout.contains("2 tests: 2 OK"), "{name}: {stdout}");
        assert!(stderr.contains("cpp, compiled in"), "{name}: {stderr}");
    }
    let builds = std::fs::read_dir(cache.join("build")).unwrap().count();
    assert_eq!(builds, 2, "one build for each name");
}

/// A test without an answer has no output to judge, but how the run ended
/// is judged all the same: a crash, a time limit (CPU: TLE; wall, for a
/// program that sleeps: ILE) or an allocation past the limit fails it; only
/// a clean exit is "not judged".
#[test]
fn a_test_without_an_answer_still_fails_on_a_crash_or_a_limit() {
    let dir = scratch("setter-unanswered");
    let tests = made(dir.join("tests"));
    for name in ["crash", "fine", "slow", "sleepy"] {
        std::fs::write(tests.join(format!("{name}.in")), format!("{name}\n")).unwrap();
    }
    let cmd = "read x; case $x in crash) exit 3;; slow) while :; do :; done;; sleepy) sleep 30;; esac; echo $x";
    let out = cli("test --timeout-ms 500 --wall-ms 1500 --startup-ms 5000")
        .arg(tests.to_str().unwrap())
        .flag("--cmd", cmd)
        .run_in(&dir);
    let (stdout, _) = found(&out);
    assert_eq!(verdict_of(&stdout, "crash"), "RE", "{stdout}");
    assert_eq!(verdict_of(&stdout, "slow"), "TLE", "{stdout}");
    assert_eq!(verdict_of(&stdout, "sleepy"), "ILE", "{stdout}");
    assert_eq!(verdict_of(&stdout, "fine"), "--", "{stdout}");
    has(
        &stdout,
        &["4 tests: 0 OK, 0 WA, 1 RE, 1 TLE, 1 ILE, 0 MLE, 0 OLE, 1 not judged"],
    );
}

#[test]
fn test_judges_cpp_java_and_python_with_time_memory_and_json() {
    let dir = scratch("setter-test");
    let tests = sum_tests(
        &dir,
        &[
            ("01", &[4, 5]),
            ("02", &[7]),
            ("03", &[-1, 2, 0]),
            ("04", &[9, 9, 9, 9]),
        ],
    );
    // An answer named .out counts as well; an input with none is run, not judged.
    std::fs::rename(tests.join("04.ans"), tests.join("04.out")).unwrap();
    std::fs::write(tests.join("05.in"), "1\n3\n").unwrap();
    let tests = tests.to_str().unwrap();
    for cmd in [fixture("sum.cpp"), fixture("Sum.java"), fixture("sum.py")] {
        let out = cli("test --jobs 2")
            .arg(tests)
            .flag("--cmd", &cmd)
            .run_in(&dir);
        let (stdout, stderr) = exited(&out, 0, format_args!("{cmd}: "));
        // Java and Python get their multipliers.
        let limit = match cmd.rsplit_once('.').map(|(_, ext)| ext) {
            Some("java") => "time limit 2000 ms (java x2: 4000 ms),",
            Some("py") => "time limit 2000 ms (python x3: 6000 ms),",
            _ => "time limit 2000 ms,",
        };
        assert!(stderr.contains(limit), "{cmd}: {stderr}");
        for name in ["01", "02", "03", "04"] {
            assert_eq!(verdict_of(&stdout, name), "OK", "{cmd}: {stdout}");
        }
        assert_eq!(verdict_of(&stdout, "05"), "--", "{stdout}");
        has(&stdout, &["1 not judged (no answer)"]);
        // Every test's line has its time and a measured peak (the summary's
        // line has both words too, so each test's is looked at).
        for name in ["01", "02", "03", "04", "05"] {
            let line = stdout
                .lines()
                .find(|l| l.split_whitespace().next() == Some(name))
                .unwrap_or_else(|| panic!("{cmd}: no line for {name}: {stdout}"));
            assert!(
                line.contains(" ms ") && line.contains("iB"),
                "{cmd}: {line}"
            );
        }
    }

    // A wrong solution fails where the last number counts; exit 1.
    let wrong = format!("{} wrong", fixture("sum.py"));
    let out = cli("test --format json")
        .arg(tests)
        .flag("--cmd", &wrong)
        .run_in(&dir);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(
        (&json["lockstep"], &json["schema"]),
        (&"test".into(), &1.into())
    );
    let verdicts: Vec<_> = json["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap(), t["verdict"].as_str()))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("01", Some("WA")),
            ("02", Some("WA")),
            ("03", Some("OK")),
            ("04", Some("WA")),
            ("05", None)
        ]
    );
    assert_eq!(json["counts"]["wa"], 3);
    assert_eq!(json["counts"]["not_judged"], 1);
    // The default comparison, one for every command.
    assert_eq!(json["judged_by"], "lines");
    let first = &json["tests"][0];
    assert!(
        first["detail"].as_str().unwrap().contains("expected \"9\""),
        "{first}"
    );
    assert!(first["memory_bytes"].as_u64().unwrap() > 1 << 20, "{first}");
    assert!(
        json["memory_bytes"]["largest"].as_u64().unwrap()
            >= json["memory_bytes"]["median"].as_u64().unwrap()
    );
}

#[test]
fn an_allocation_past_the_limit_is_mle_in_each_language_and_in_stress() {
    let dir = scratch("setter-mle");
    let tests = sum_tests(&dir, &[("1", &[1]), ("2", &[2])]);
    let tests = tests.to_str().unwrap();
    for source in ["sum.cpp", "Sum.java", "sum.py"] {
        let cmd = format!("{} alloc", fixture(source));
        let start = std::time::Instant::now();
        let out = cli("test --memory-limit 256M --jobs 1")
            .arg(tests)
            .flag("--cmd", &cmd)
            .run_in(&dir);
        let (stdout, stderr) = exited(&out, 1, format_args!("{source}: "));
        assert!(
            stdout.contains("0 OK, 0 WA, 0 RE, 0 TLE, 0 ILE, 2 MLE"),
            "{source}: {stdout}"
        );
        // Under RLIMIT_AS the allocation is refused inside the program,
        // which says so; in a cgroup the kernel may kill it first.
        let says = match memory_guard(&stderr) {
            Guard::AddressSpace => "ran out of memory under the limit of 256 MiB",
            Guard::Cgroup => "the limit of 256 MiB",
        };
        assert!(stdout.contains(says), "{source}: {stdout}");
        // Refused at once, never a machine brought to its knees.
        assert!(
            start.elapsed().as_secs() < 60,
            "{source}: {:?}",
            start.elapsed()
        );
    }
    // A C++ program that writes to malloc's NULL dies by SIGSEGV at the
    // cap: MLE (by its peak near the limit), not RE.
    let cmd = format!("{} unchecked", fixture("sum.cpp"));
    let out = cli("test --memory-limit 128M --jobs 1")
        .arg(tests)
        .flag("--cmd", &cmd)
        .run_in(&dir);
    let (stdout, stderr) = found(&out);
    assert_eq!(verdict_of(&stdout, "1"), "MLE", "{stdout}");
    // In a cgroup malloc never says NULL: the kernel kills it at the limit.
    let says = match memory_guard(&stderr) {
        Guard::AddressSpace => "under the limit of 128 MiB (peak ",
        Guard::Cgroup => "the limit of 128 MiB",
    };
    assert!(stdout.contains(says), "{stdout}");
    // Under stress the MLE is a failure kind of its own, shrunk like any.
    let out =
        cli("stress any --memory-limit 256M --seed 3 --cases 4 --jobs 1 --shrink-attempts 30")
            .flag("--gen", fixture("gen.py"))
            .flag("--brute", fixture("sum.cpp"))
            .flag("--cmd", format!("{} alloc", fixture("sum.cpp")))
            .flag("--save", dir.join("min.txt").to_str().unwrap())
            .run_in(&dir);
    let (stdout, stderr) = found(&out);
    has(&stdout, &["1 MLE"]);
    has(&stderr, &["MLE on seed 3"]);
    let says = match memory_guard(&stderr) {
        Guard::AddressSpace => "ran out of memory under 256 MiB",
        Guard::Cgroup => "256 MiB",
    };
    assert!(stderr.contains(says), "{stderr}");
}

/// A cache under a path with a space (a home like `/home/my name`) makes
/// run lines with quoted paths; they must still start `java` itself, so
/// that it is seen as a JVM (its heap flag, no address-space cap) and not
/// hidden behind `sh -c`, where RLIMIT_AS made it crash at start as RE.
#[test]
fn a_cache_under_a_path_with_a_space_still_runs_a_jvm_as_one() {
    let dir = scratch("setter-spaced");
    let tests = sum_tests(&dir, &[("1", &[1])]);
    let cache = dir.join("my cache");
    let cmd = format!("{} alloc", fixture("Sum.java"));
    let out = run_cached(
        &cache,
        &dir,
        &[
            "test",
            tests.to_str().unwrap(),
            "--cmd",
            &cmd,
            "--memory-limit",
            "256M",
        ],
    );
    let (stdout, _) = found(&out);
    assert_eq!(verdict_of(&stdout, "1"), "MLE", "{stdout}");
    has(&stdout, &["ran out of memory under the limit of 256 MiB"]);
}

/// A program named `java` is a JVM: no address-space cap, its heap flag
/// added, and the resident watch kills it past the limit. The stand-in is
/// a script that grows its resident size in steps (at most 400 MB).
#[test]
fn a_jvm_is_held_by_its_heap_flag_and_its_resident_size() {
    let dir = scratch("setter-jvm");
    let bin = made(dir.join("bin"));
    let java = written(bin.join("java"), "#!/usr/bin/env python3\nimport sys, time\nif not sys.stdin.read().strip():\n    sys.exit(0)\nopen(sys.argv[0] + '.args', 'w').write(' '.join(sys.argv[1:]))\nblocks = []\nfor _ in range(25):\n    blocks.append(bytearray(16 << 20))\n    time.sleep(0.02)\nprint(len(blocks))\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&java, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tests = sum_tests(&dir, &[("1", &[25])]);
    let cmd = format!("{} -cp x Main", java.display());
    let out = cli("test --memory-limit 128M --timeout-ms 20000")
        .arg(tests.to_str().unwrap())
        .flag("--cmd", &cmd)
        .run_in(&dir);
    let (stdout, stderr) = found(&out);
    assert_eq!(verdict_of(&stdout, "1"), "MLE", "{stdout}");
    // The heap flag, after `java` and before its own words, whatever
    // enforces the limit.
    let args = std::fs::read_to_string(bin.join("java.args")).unwrap();
    assert_eq!(args, "-Xmx128m -cp x Main");
    // What ended it depends on what is in force, which the banner names.
    match memory_guard(&stderr) {
        // No address-space cap (the 400 MB are allocated, not refused with
        // a MemoryError): the resident watch saw it go over and killed it.
        Guard::AddressSpace => {
            assert!(stdout.contains("over the limit of 128 MiB"), "{stdout}")
        }
        // The run's cgroup held it to 128 MiB and the kernel killed it there.
        Guard::Cgroup => assert!(stdout.contains("the limit of 128 MiB"), "{stdout}"),
    }
    // Without a limit it is measured only, and passes.
    let json = cli("test --timeout-ms 20000 --format json")
        .arg(tests.to_str().unwrap())
        .flag("--cmd", &cmd)
        .run_in(&dir);
    assert_eq!(json.status.code(), Some(0), "{}", text(&json.stderr));
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["tests"][0]["verdict"], "OK");
    let peak = json["tests"][0]["memory_bytes"].as_u64().unwrap();
    assert!(peak > 400 << 20, "the whole 400 MB is seen: {peak}");
}

#[test]
fn a_compile_error_is_ce_with_the_compilers_first_lines_before_any_case() {
    let dir = scratch("setter-ce");
    let tests = sum_tests(&dir, &[("1", &[1])]);
    for (source, says) in [
        ("ce.cpp", "undeclared_name"),
        ("ce.py", "SyntaxError"),
        ("Ce.java", "incompatible types"),
    ] {
        let out = run_cached(
            &dir.join("cache"),
            &dir,
            &["test", tests.to_str().unwrap(), "--cmd", &fixture(source)],
        );
        let stderr = crate::support::fails_with(&out, "CE: ");
        assert!(stderr.contains(says), "{source}: {stderr}");
        assert!(
            text(&out.stdout).is_empty(),
            "no case ran: {}",
            text(&out.stdout)
        );
    }
    // The same for a tool of stress, before any case.
    let out = run_cached(
        &dir.join("cache"),
        &dir,
        &[
            "stress",
            "any",
            "--gen",
            &fixture("gen.py"),
            "--brute",
            &fixture("ce.cpp"),
            "--cmd",
            &fixture("sum.py"),
            "--cases",
            "3",
        ],
    );
    let stderr = crate::support::fails_with(&out, "--brute");
    has(&stderr, &["CE: ", "undeclared_name"]);
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
    // Nothing of a failed build stays in the cache: only the Python
    // programs that built (the generator, the solution).
    let left: Vec<String> = std::fs::read_dir(dir.join("cache/build"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        left.len() == 2 && left.iter().all(|b| b.starts_with("python-")),
        "{left:?}"
    );
}

#[test]
fn reals_compare_within_an_error_and_yes_matches_in_any_case() {
    let dir = scratch("setter-compare");
    let tests = made(dir.join("tests"));
    for n in [1, 7] {
        std::fs::write(tests.join(format!("{n}.in")), format!("{n}\n")).unwrap();
        std::fs::write(
            tests.join(format!("{n}.ans")),
            format!("{:.9}\n", n as f64 / 3.0),
        )
        .unwrap();
    }
    let tests = tests.to_str().unwrap();
    let third = |mode: &str| format!("{} {mode}", fixture("third.py"));
    let run = |cmd: &str, compare: &str| {
        cli("test")
            .arg(tests)
            .flag("--cmd", cmd)
            .flag("--compare", compare)
            .run_in(&dir)
    };
    assert_eq!(run(&third("close"), "real:1e-6").status.code(), Some(0));
    let far = run(&third("far"), "real:1e-6");
    let stdout = text(&far.stdout);
    assert_eq!(far.status.code(), Some(1), "{stdout}");
    has(&stdout, &["absolute error 1.000e-4"]);
    // Exact tokens: the extra decimals are a difference.
    assert_eq!(run(&third(""), "tokens").status.code(), Some(1));

    let yes = made(dir.join("yes"));
    for n in [2, 3] {
        std::fs::write(yes.join(format!("{n}.in")), format!("{n}\n")).unwrap();
        let answer = if n % 2 == 0 { "YES" } else { "NO" };
        std::fs::write(yes.join(format!("{n}.ans")), format!("{answer}\n")).unwrap();
    }
    let yes = yes.to_str().unwrap();
    let parity = fixture("parity.py");
    let run = |cmd: &str, compare: &str| {
        cli("test")
            .arg(yes)
            .flag("--cmd", cmd)
            .flag("--compare", compare)
            .run_in(&dir)
    };
    assert_eq!(run(&parity, "yesno").status.code(), Some(0));
    let strict = run(&parity, "tokens");
    assert_eq!(strict.status.code(), Some(1));
    assert!(text(&strict.stdout).contains("expected \"YES\" (line 1), got \"yes\""));
    let wrong = run(&format!("{parity} wrong"), "yesno");
    assert_eq!(wrong.status.code(), Some(1));
    assert_eq!(verdict_of(&text(&wrong.stdout), "3"), "WA");
    // Nonsense is refused before anything runs.
    crate::support::fails_with(&run(&parity, "real:x"), "the error must be a number");
}

#[test]
fn stress_takes_sources_and_test_runs_its_dump_sets_and_the_samples() {
    let dir = scratch("setter-stress");
    let dump = dir.join("dump");
    let out = cli("stress any --seed 5 --cases 6")
        .flag("--gen", fixture("gen.py"))
        .flag("--brute", fixture("sum.cpp"))
        .flag("--cmd", fixture("sum.cpp"))
        .flag("--dump", dump.to_str().unwrap())
        .run_in(&dir);
    let (stdout, stderr) = exited(&out, 0, "");
    has(&stdout, &["6 OK", "peak memory: median"]);
    // One default comparison for every command, said in the banner.
    has(&stderr, &["compared as lines"]);
    // The dump set runs through `test` unchanged: right, then wrong.
    let out = cli("test")
        .arg(dump.to_str().unwrap())
        .flag("--cmd", fixture("sum.cpp"))
        .run_in(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    has(&text(&out.stdout), &["6 tests: 6 OK"]);
    let wrong = format!("{} wrong", fixture("sum.cpp"));
    let out = cli("stress any --seed 5 --cases 20 --jobs 1")
        .flag("--gen", fixture("gen.py"))
        .flag("--brute", fixture("sum.cpp"))
        .flag("--cmd", &wrong)
        .flag("--save", dir.join("min.txt").to_str().unwrap())
        .run_in(&dir);
    let (_, stderr) = found(&out);
    has(&stderr, &["WA on seed 5"]);
    let saved = std::fs::read_to_string(dir.join("min.txt")).unwrap();
    assert_eq!(
        saved.split_whitespace().count(),
        2,
        "n and one number: {saved:?}"
    );

    // A puzzle's dump set and its statement samples, through `test` as they are.
    let puzzle_dump = dir.join("puzzle");
    let solver = format!("{BIN} solve new-game2");
    let out = cli("stress new-game2 --cases 5 --seed 1 --jobs 1 --no-append")
        .flag(
            "--cmd",
            format!("{} ok", crate::support::repo("tests/fixtures/new_game2.py")),
        )
        .flag("--dump", puzzle_dump.to_str().unwrap())
        .run_in(&dir);
    passed(&out);
    assert!(
        text(&out.stderr).contains("new_game2.py ok: python, "),
        "a source with an argument: {}",
        text(&out.stderr)
    );
    let out = cli("test --compare lines")
        .arg(puzzle_dump.to_str().unwrap())
        .flag("--cmd", &solver)
        .run_in(&dir);
    has(&text(&out.stdout), &["5 tests: 5 OK"]);
    let samples = crate::support::repo("corpus/new_game2.csv");
    let out = cli("test --origin sample")
        .arg(&samples)
        .flag("--cmd", &solver)
        .run_in(&dir);
    let stdout = passed(&out);
    assert!(
        stdout.contains("5 tests: 5 OK"),
        "the five statement samples: {stdout}"
    );
}

#[test]
fn the_duel_commands_take_a_bot_source() {
    let dir = scratch("setter-duel");
    let bot = fixture("bot.py");
    let out = cli("duel referee --seed 4")
        .flag("--p1", &bot)
        .flag("--p2", &bot)
        .run_in(&dir);
    let (stdout, stderr) = exited(&out, 0, "");
    has(&stdout, &["result: "]);
    has(&stderr, &["--p1 ", ": python, "]);
    let out = cli("duel stress --games 2 --seed 1 --jobs 1")
        .flag("--cmd", &bot)
        .run_in(&dir);
    passed(&out);
    let out = cli("duel ladder --strategies random --games 2 --seed 1")
        .flag("--cmd", format!("mine={bot}"))
        .run_in(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    has(&text(&out.stderr), &["--cmd mine="]);
}

/// A corpus file as a test set keeps, by default, to the original
/// statement's limits, and says how many rows it left out; `--limits wide`
/// runs them too. checkers' corpus holds rows past them (squares off
/// 1..=32). On a directory of tests `--limits` means nothing: an error.
#[test]
fn a_corpus_test_set_keeps_to_the_original_limits_unless_told() {
    let dir = scratch("setter-corpus-limits");
    let corpus = repo("corpus/checkers.csv");
    let solver = format!("{BIN} solve checkers");
    let count = |stdout: &str| -> u64 {
        let line = stdout
            .lines()
            .find(|l| l.contains(" tests: "))
            .unwrap_or_else(|| panic!("{stdout}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "tests:").unwrap();
        words[at - 1].parse().unwrap()
    };
    let out = cli("test").arg(&corpus).flag("--cmd", &solver).run_in(&dir);
    let original = count(&passed(&out));
    let stderr = text(&out.stderr);
    let left_out: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("left out "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no count of rows left out: {stderr}"))
        .parse()
        .unwrap();
    assert!(left_out > 0);
    let out = cli("test --limits wide")
        .arg(&corpus)
        .flag("--cmd", &solver)
        .run_in(&dir);
    assert_eq!(count(&passed(&out)), original + left_out);
    assert!(!text(&out.stderr).contains("left out"));
    let out = cli("test --limits wide")
        .arg(dir.to_str().unwrap())
        .flag("--cmd", &solver)
        .run_in(&dir);
    crate::support::fails_with(&out, "--origin and --limits pick rows of a corpus file");
}
